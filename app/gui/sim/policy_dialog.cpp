#include "policy_dialog.h"

#include "catalog/catalog.h"
#include "util/input_error.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace schedscope::gui {

namespace {
const char *const kErrorStyle = "color: #b00020;";
} // namespace

PolicyDialog::PolicyDialog(const PolicySpec &spec, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Policy parameters"));
    auto *layout = new QVBoxLayout(this);
    policy_ = new QComboBox(this);
    for (const PolicyInfo &p : policy_catalog())
        policy_->addItem(QString::fromStdString(p.name));
    policy_->setCurrentText(QString::fromStdString(spec.name));
    layout->addWidget(policy_);
    label_ = new QLineEdit(QString::fromStdString(spec.label), this);
    label_->setPlaceholderText(tr("Label: blank = the policy and what differs from the other panes"));
    label_->setToolTip(tr("What the charts, the Explain pane picker and the exports call this pane"));
    layout->addWidget(label_);
    description_ = new QLabel(this);
    description_->setWordWrap(true);
    layout->addWidget(description_);
    fields_host_ = new QWidget(this);
    form_ = new QFormLayout(fields_host_);
    layout->addWidget(fields_host_);
    general_error_ = new QLabel(this);
    general_error_->setStyleSheet(QString::fromLatin1(kErrorStyle));
    general_error_->setWordWrap(true);
    layout->addWidget(general_error_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Re-run"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons_);
    connect(policy_, &QComboBox::currentTextChanged, this, [this](const QString &name) {
        rebuildFields(PolicySpec{name.toStdString(), {}, {}});
    });
    rebuildFields(spec);
}

void PolicyDialog::rebuildFields(const PolicySpec &spec)
{
    while (form_->rowCount() > 0)
        form_->removeRow(0);
    fields_.clear();
    const PolicyInfo *info = nullptr;
    for (const PolicyInfo &p : policy_catalog())
        if (p.name == spec.name)
            info = &p;
    description_->setText(info ? QString::fromStdString(info->description) : QString());
    std::vector<ParamInfo> params = info ? info->params : std::vector<ParamInfo>{};
    if (info) // every policy takes it besides its own, its default the policy's
        params.push_back(wakeup_info(spec.name, spec.params));
    for (const ParamInfo &p : params) {
        auto *edit = new QLineEdit(fields_host_);
        edit->setPlaceholderText(QString::fromStdString(p.default_value.empty() ? "(none)" : p.default_value));
        edit->setToolTip(QString::fromStdString(p.description));
        const auto it = spec.params.find(p.name);
        // Values equal to the default stay blank: the placeholder shows it.
        if (it != spec.params.end() && it->second != p.default_value)
            edit->setText(QString::fromStdString(it->second));
        auto *error = new QLabel(fields_host_);
        error->setStyleSheet(QString::fromLatin1(kErrorStyle));
        error->setWordWrap(true);
        error->hide();
        auto *cell = new QWidget(fields_host_);
        auto *v = new QVBoxLayout(cell);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(1);
        v->addWidget(edit);
        v->addWidget(error);
        form_->addRow(QString::fromStdString(p.name), cell);
        fields_[p.name] = {edit, error};
        connect(edit, &QLineEdit::textChanged, this, &PolicyDialog::validate);
    }
    validate();
}

PolicySpec PolicyDialog::spec() const
{
    PolicySpec s{policy_->currentText().toStdString(), {}, label_->text().trimmed().toStdString()};
    for (const auto &[name, f] : fields_) {
        const QString v = f.edit->text().trimmed();
        if (!v.isEmpty())
            s.params[name] = v.toStdString();
    }
    return s;
}

void PolicyDialog::growToFit()
{
    // A wrapped message needs more height than the label had when the dialog
    // was laid out; the form does not grow the window by itself, and the
    // message's end would be cut ("'soon' is not a whole").
    layout()->activate();
    QSize want = sizeHint().expandedTo(size());
    if (layout()->hasHeightForWidth())
        want.setHeight(std::max(want.height(), layout()->totalHeightForWidth(want.width())));
    if (want != size())
        resize(want);
}

QLabel *PolicyDialog::fieldErrorLabel(const std::string &param) const
{
    const auto it = fields_.find(param);
    return it == fields_.end() ? nullptr : it->second.error;
}

QString PolicyDialog::fieldError(const std::string &param) const
{
    const auto it = fields_.find(param);
    return it == fields_.end() || it->second.error->isHidden() ? QString() : it->second.error->text();
}

QLineEdit *PolicyDialog::field(const std::string &param) const
{
    const auto it = fields_.find(param);
    return it == fields_.end() ? nullptr : it->second.edit;
}

void PolicyDialog::validate()
{
    for (auto &[name, f] : fields_)
        f.error->hide();
    general_error_->clear();
    valid_ = true;
    const PolicySpec s = spec();
    try {
        make_policy(s.name, s.params, "parameters");
    } catch (const InputError &e) {
        valid_ = false;
        const auto it = fields_.find(e.field());
        if (it != fields_.end()) {
            it->second.error->setText(QString::fromStdString(e.message()));
            it->second.error->show();
            growToFit();
        } else {
            general_error_->setText(QString::fromStdString(e.what()));
            growToFit();
        }
    } catch (const std::exception &e) {
        // e.g. autotune=profile with a profile file that cannot be read
        valid_ = false;
        general_error_->setText(QString::fromStdString(e.what()));
        growToFit();
    }
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(valid_);
}

} // namespace schedscope::gui

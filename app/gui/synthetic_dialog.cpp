#include "synthetic_dialog.h"

#include "topology/import.h"
#include "util/input_error.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace schedscope::gui {

QString SyntheticDialog::validateWithHwloc(const QString &description)
{
    if (description.trimmed().isEmpty())
        return tr("Type a description, e.g. pack:2 [numa] l3:1 core:6 pu:2");
    try {
        import_synthetic(description.trimmed().toStdString());
        return {};
    } catch (const InputError &e) {
        return QString::fromStdString(e.message());
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
}

SyntheticDialog::SyntheticDialog(QWidget *parent, Validator validator)
    : QDialog(parent), validator_(std::move(validator)), edit_(new QLineEdit(this)), error_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Open synthetic topology"));
    auto *intro = new QLabel(tr("An hwloc synthetic description, as in <tt>lstopo -i</tt>:"), this);
    edit_->setPlaceholderText(QStringLiteral("pack:2 [numa] l3:1 core:6 pu:2"));
    edit_->setMinimumWidth(420);
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("color: #b00020;"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(edit_);
    layout->addWidget(error_);
    layout->addWidget(buttons_);
    connect(edit_, &QLineEdit::textChanged, this, &SyntheticDialog::revalidate);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    revalidate();
}

void SyntheticDialog::setDescription(const QString &description) { edit_->setText(description); }

QString SyntheticDialog::description() const { return edit_->text().trimmed(); }

QString SyntheticDialog::errorText() const { return error_->text(); }

bool SyntheticDialog::isAcceptable() const { return buttons_->button(QDialogButtonBox::Ok)->isEnabled(); }

void SyntheticDialog::revalidate()
{
    const QString error = validator_ ? validator_(edit_->text()) : QString();
    error_->setText(error);
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
}

} // namespace schedscope::gui

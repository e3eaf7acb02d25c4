#pragma once
// "Open synthetic...": a line edit for an hwloc synthetic description with
// validation on every keystroke; the error stays inline under the field and
// OK is only enabled for a description that loads.

#include <QDialog>

#include <functional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace schedscope::gui {

class SyntheticDialog : public QDialog {
    Q_OBJECT
public:
    // Returns an empty string when the description is valid, else the reason.
    using Validator = std::function<QString(const QString &)>;
    static QString validateWithHwloc(const QString &description);

    explicit SyntheticDialog(QWidget *parent = nullptr, Validator validator = &SyntheticDialog::validateWithHwloc);

    void setDescription(const QString &description);
    QString description() const;
    QString errorText() const; // what the inline label shows, empty when valid
    bool isAcceptable() const;

private:
    void revalidate();

    Validator validator_;
    QLineEdit *edit_;
    QLabel *error_;
    QDialogButtonBox *buttons_;
};

} // namespace schedscope::gui

#pragma once
// Edits one pane's policy: its name from the catalog and each parameter the
// catalog lists, blank meaning the default, and the pane's label (blank:
// generated from the parameters that differ from the other panes). Every
// edit is validated by the policy's own factory and its error shown under
// the field it names, so the dialog accepts only what the engine will run.

#include "scenario/scenario.h"

#include <QDialog>

#include <map>
#include <string>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace schedscope::gui {

class PolicyDialog : public QDialog {
    Q_OBJECT
public:
    explicit PolicyDialog(const PolicySpec &spec, QWidget *parent = nullptr);

    PolicySpec spec() const;
    bool valid() const { return valid_; }
    // The message shown for a field ("" if none), for tests.
    QString fieldError(const std::string &param) const;
    QLabel *fieldErrorLabel(const std::string &param) const;
    QLineEdit *field(const std::string &param) const;
    QComboBox *policyBox() const { return policy_; }
    QLineEdit *labelEdit() const { return label_; }

private:
    void rebuildFields(const PolicySpec &spec);
    void validate();
    void growToFit();

    QComboBox *policy_;
    QLineEdit *label_;
    QLabel *description_;
    QFormLayout *form_;
    QWidget *fields_host_;
    QLabel *general_error_;
    QDialogButtonBox *buttons_;
    struct Field {
        QLineEdit *edit = nullptr;
        QLabel *error = nullptr;
    };
    std::map<std::string, Field> fields_;
    bool valid_ = true;
};

} // namespace schedscope::gui

// NormLab: the reproduction report dialog (see reportdialog.h).
#include "app/gui/reportdialog.h"

#include "app/gui/child_process.h"
#include "app/gui/report.h"
#include "core/config.h"
#include "core/data/data.h"
#include "core/experiment.h"
#include "core/train/trainer.h"

#include <set>

#include <QComboBox>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>
#include <QVBoxLayout>

namespace normlab {

namespace {
constexpr int kScalesRole = Qt::UserRole + 1;   // a list item's scales, beside its path (Qt::UserRole)
}  // namespace

QStringList default_reproduction_experiments() {
    const QString shipped = shipped_experiments_dir();
    if (shipped.isEmpty()) return {};
    const QDir dir(shipped + "/reproduction");
    QStringList out;
    for (auto& n : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) out << QDir::cleanPath(dir.absoluteFilePath(n));
    return out;
}

ReportDialog::ReportDialog(const QString& store_path, QWidget* parent) : QDialog(parent), store_(store_path) {
    setWindowTitle(tr("Reproduce paper findings"));
    resize(760, 560);
    auto* intro = new QLabel(tr("Trains the experiments' runs into the open store (finished runs with the same "
                                "configuration are reused), measures each finding, draws its figures and writes "
                                "a Markdown/HTML report with a verdict per finding."),
                             this);
    intro->setWordWrap(true);
    files_ = new QListWidget(this);
    files_->setObjectName("reportFiles");
    auto* add = new QPushButton(tr("Add…"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    connect(add, &QPushButton::clicked, this, [this] {
        const auto picked = QFileDialog::getOpenFileNames(this, tr("Experiments"), QString(), tr("Experiments (*.json)"));
        QStringList all = experiments();
        for (auto& f : picked)
            if (!all.contains(f)) all << f;
        setExperiments(all);
    });
    remove->setEnabled(false);
    connect(files_, &QListWidget::itemSelectionChanged, this,
            [this, remove] { remove->setEnabled(!files_->selectedItems().isEmpty() && !running()); });
    files_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(files_->selectedItems());
        updateScales();
        relabel();
    });
    scale_ = new QComboBox(this);
    scale_->setObjectName("reportScale");
    scale_->setToolTip(tr("The lab's sizes train every finding on a CPU in minutes; an experiment's named scale "
                          "(gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU) trains larger models longer, "
                          "into the same store beside the other runs"));
    connect(scale_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (!scale_->signalsBlocked()) relabel();
    });
    out_ = new QLineEdit(this);
    out_->setObjectName("reportOut");
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Report folder"), out_->text());
        if (!d.isEmpty()) out_->setText(d);
    });
    connect(out_, &QLineEdit::textChanged, this, [this] { updateButtons(); });
    log_ = new QPlainTextEdit(this);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    log_->setPlaceholderText(tr("The report's progress appears here."));
    state_ = new QLabel(this);
    start_ = new QPushButton(tr("Start"), this);
    stop_ = new QPushButton(tr("Stop"), this);
    open_ = new QPushButton(tr("Open report"), this);
    auto* close = new QPushButton(tr("Close"), this);
    connect(start_, &QPushButton::clicked, this, &ReportDialog::start);
    connect(stop_, &QPushButton::clicked, this, [this] {
        if (proc_) proc_->terminate();   // the run in progress is kept as cancelled
    });
    connect(open_, &QPushButton::clicked, this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QDir(out_->text()).filePath("index.html")));
    });
    connect(close, &QPushButton::clicked, this, &ReportDialog::reject);

    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(files_, 1);
    auto* fileButtons = new QVBoxLayout;
    fileButtons->addWidget(add);
    fileButtons->addWidget(remove);
    fileButtons->addStretch();
    fileRow->addLayout(fileButtons);
    auto* outRow = new QHBoxLayout;
    outRow->addWidget(out_, 1);
    outRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Experiments"), fileRow);
    form->addRow(tr("Model size"), scale_);
    form->addRow(tr("Report folder"), outRow);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(state_, 1);
    buttons->addWidget(start_);
    buttons->addWidget(stop_);
    buttons->addWidget(open_);
    buttons->addWidget(close);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(intro);
    lay->addLayout(form);
    lay->addWidget(log_, 1);
    lay->addLayout(buttons);

    setExperiments(default_reproduction_experiments());
    // the size last started, else a GPU's where the window trains on one
    const QVariant last = QSettings().value("report/scale");
    setScale(last.isValid() ? last.toString() : gpu_devices().empty() ? QString() : QString("gpu"));
    const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    setOutputDir(QSettings().value("report/out", QDir(docs.isEmpty() ? QDir::homePath() : docs).filePath("normlab-report")).toString());
    updateButtons();
}

ReportDialog::~ReportDialog() {
    if (proc_ && proc_->state() != QProcess::NotRunning) {
        proc_->terminate();
        if (!proc_->waitForFinished(5000)) proc_->kill();
    }
}

void ReportDialog::setExperiments(const QStringList& files) {
    files_->clear();
    for (auto& f : files) {
        auto* item = new QListWidgetItem(QFileInfo(f).fileName(), files_);
        item->setData(Qt::UserRole, f);
        item->setToolTip(f);
        QStringList scales;   // read once: what the file offers does not change with the size chosen
        try {
            for (const std::string& n : load_experiment(f.toStdString()).scales) scales << QString::fromStdString(n);
        } catch (const std::exception&) {
        }   // relabel says why
        item->setData(kScalesRole, scales);
    }
    updateScales();
    relabel();
}

// The scales the listed experiments offer, the chosen one kept where it still is one.
void ReportDialog::updateScales() {
    std::set<QString> names;
    for (int i = 0; i < files_->count(); ++i)
        for (const QString& n : files_->item(i)->data(kScalesRole).toStringList()) names.insert(n);
    const QString was = scale_->currentData().toString();
    scale_->blockSignals(true);
    scale_->clear();
    scale_->addItem(tr("The lab's sizes (a CPU, minutes)"), QString());
    for (const QString& name : names) {
        scale_->addItem(name == "gpu" ? tr("gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU")
                                      : tr("%1: a scale the experiments define").arg(name),
                        name);
    }
    scale_->setCurrentIndex(std::max(0, scale_->findData(was)));
    scale_->blockSignals(false);
}

// "xiong_init.json — findings 1, 2, 3; 30 run(s)", at a scale with the memory the
// largest run takes, or why the file cannot be used at the chosen scale
void ReportDialog::relabel() {
    const QString scale = this->scale();
    unusable_.clear();
    for (int i = 0; i < files_->count(); ++i) {
        QListWidgetItem* item = files_->item(i);
        const QString f = item->data(Qt::UserRole).toString();
        QString label = QFileInfo(f).fileName();
        try {
            const Experiment ex = load_experiment(f.toStdString(), scale.toStdString());
            QStringList nums;
            if (ex.report.is_array())
                for (auto& r : ex.report) nums << QString::number(r["finding"].get<int>());
            label += nums.isEmpty() ? tr(" — no findings to report") : tr(" — findings %1").arg(nums.join(", "));
            label += tr("; %n run(s)", "", static_cast<int>(ex.runs.size()));
            for (const auto& r : ex.runs) check_data_source(r.config.data, r.config.model.context);   // the corpus made?
            if (!scale.isEmpty()) {
                double gib = 0;
                for (const auto& r : ex.runs) gib = std::max(gib, estimate_memory(r.config).total() / 1073741824.0);
                label += tr(", up to %1 GiB each").arg(gib, 0, 'f', 1);
            }
        } catch (const std::exception& e) {
            label += tr(" — cannot be used: %1").arg(QString::fromUtf8(e.what()));
            unusable_ << QFileInfo(f).fileName();
        }
        item->setText(label);
    }
    updateButtons();
}

QString ReportDialog::scale() const { return scale_->currentData().toString(); }

bool ReportDialog::setScale(const QString& name) {
    const int i = scale_->findData(name);
    if (i < 0) return false;
    if (i == scale_->currentIndex()) relabel();
    else scale_->setCurrentIndex(i);   // relabels
    return true;
}

QStringList ReportDialog::experiments() const {
    QStringList out;
    for (int i = 0; i < files_->count(); ++i) out << files_->item(i)->data(Qt::UserRole).toString();
    return out;
}

void ReportDialog::setOutputDir(const QString& dir) { out_->setText(dir); }

QStringList ReportDialog::arguments() const {
    QStringList a{"report"};
    a << experiments() << "--out" << out_->text();
    if (!scale().isEmpty()) a << "--scale" << scale();
    if (!store_.isEmpty()) a << "--store" << store_;
    return a;
}

bool ReportDialog::running() const { return proc_ && proc_->state() != QProcess::NotRunning; }
QString ReportDialog::log() const { return log_->toPlainText(); }

void ReportDialog::start() {
    if (running() || experiments().isEmpty() || out_->text().isEmpty() || !unusable_.isEmpty()) return;
    QSettings().setValue("report/out", out_->text());
    QSettings().setValue("report/scale", scale());
    log_->clear();
    delete proc_;
    proc_ = new QProcess(this);
    proc_->setProcessChannelMode(QProcess::MergedChannels);
    end_with_window(*proc_);   // a window killed outright stops its report too
    connect(proc_, &QProcess::readyRead, this, &ReportDialog::onOutput);
    connect(proc_, qOverload<int, QProcess::ExitStatus>(&QProcess::finished), this,
            [this](int code, QProcess::ExitStatus st) { onFinished(st == QProcess::NormalExit ? code : 130); });
    connect(proc_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            log_->appendPlainText(tr("Could not start %1: %2").arg(proc_->program(), proc_->errorString()));
            onFinished(1);
        }
    });
    state_->setText(tr("Training and measuring…"));
    proc_->start(program_.isEmpty() ? QCoreApplication::applicationFilePath() : program_, arguments());
    updateButtons();
}

void ReportDialog::onOutput() {
    const QString text = QString::fromUtf8(proc_->readAll());
    for (const QString& line : text.split('\n', Qt::SkipEmptyParts))
        if (!line.contains("XDG_RUNTIME_DIR")) log_->appendPlainText(line);
}

void ReportDialog::onFinished(int code) {
    if (proc_) onOutput();
    state_->setText(code == 0 ? tr("Report written to %1").arg(out_->text())
                              : code == 130 ? tr("Stopped; finished runs are kept and reused next time")
                                            : tr("Finished with errors (exit code %1); see the log").arg(code));
    updateButtons();
    Q_EMIT reportFinished(code);
}

void ReportDialog::updateButtons() {
    const bool busy = running();
    start_->setEnabled(!busy && files_->count() > 0 && !out_->text().isEmpty() && unusable_.isEmpty());
    if (!busy && !unusable_.isEmpty()) {
        state_->setText(tr("Cannot start: %1 cannot be used at this size; remove it or pick another size")
                            .arg(unusable_.join(", ")));
        said_cannot_ = true;
    } else if (said_cannot_) {
        state_->clear();
        said_cannot_ = false;
    }
    stop_->setEnabled(busy);
    open_->setEnabled(!busy && QFile::exists(QDir(out_->text()).filePath("index.html")));
}

void ReportDialog::reject() {
    if (running()) return;   // Stop first; closing would orphan the training
    QDialog::reject();
}

}  // namespace normlab

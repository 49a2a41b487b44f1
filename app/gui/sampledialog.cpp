// NormLab: Write text with the selected runs' weights (see sampledialog.h).
#include "app/gui/sampledialog.h"

#include "core/errors.h"
#include "core/train/sample.h"
#include "widgets/linechart.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTextCursor>
#include <QTextEdit>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <mutex>

namespace normlab {

struct SampleDialog::Shared {
    std::mutex m;
    std::vector<std::string> text;    // per column: the bytes drawn so far
    std::vector<std::string> error;   // per column: why it wrote nothing (or stopped)
    std::vector<int64_t> step;        // per column: the weights' step, -1 until they loaded
    std::vector<bool> missing;        // per column: its weights were not here (a file would do)
    std::vector<bool> changed;
    int at = -1;                      // the column being written
    bool done = false;
    std::atomic<bool> stop{false};
};

namespace {

// Bytes as the columns show them: UTF-8 where they are (U+FFFD where they are not), a control
// character other than a line break or a tab as U+FFFD too.
QString shown(const std::string& bytes) {
    QString s = QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
    for (QChar& c : s) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != '\n' && u != '\t') || (u >= 0x7f && u < 0xa0)) c = QChar(0xfffd);
    }
    return s;
}

}  // namespace

SampleDialog::SampleDialog(std::vector<RunInfo> runs, int left_out, QWidget* parent)
    : QDialog(parent), runs_(std::move(runs)), left_out_(left_out) {
    setObjectName("sampleDialog");
    if (runs_.size() > static_cast<size_t>(kMaxRuns)) {
        left_out_ += static_cast<int>(runs_.size()) - kMaxRuns;
        runs_.resize(kMaxRuns);
    }
    weights_.assign(runs_.size(), QString());
    auto* v = new QVBoxLayout(this);
    auto* top = new QHBoxLayout();
    auto* row = new QHBoxLayout();
    prompt_ = new QLineEdit(QStringLiteral("The "), this);
    prompt_->setObjectName("samplePrompt");
    bytes_ = new QSpinBox(this);
    bytes_->setRange(1, 5000);
    bytes_->setValue(300);
    temperature_ = new QDoubleSpinBox(this);
    temperature_->setRange(0, 10);
    temperature_->setSingleStep(0.1);
    temperature_->setDecimals(2);
    temperature_->setValue(0.8);
    top_k_ = new QSpinBox(this);
    top_k_->setRange(0, 256);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 999999999);
    seed_->setValue(1);
    write_ = new QPushButton(this);
    write_->setObjectName("sampleWrite");
    write_->setDefault(true);
    stop_ = new QPushButton(this);
    stop_->setObjectName("sampleStop");
    for (QWidget* w : std::initializer_list<QWidget*>{prompt_, bytes_, temperature_, top_k_, seed_}) {
        auto* l = new QLabel(this);
        l->setBuddy(w);
        l->setObjectName(w == prompt_ ? "promptLabel" : w == bytes_ ? "bytesLabel" : w == temperature_ ? "temperatureLabel"
                                                      : w == top_k_ ? "topKLabel" : "seedLabel");
        QHBoxLayout* into = w == prompt_ ? top : row;   // the prompt a row of its own, the rest under it
        into->addWidget(l);
        into->addWidget(w, w == prompt_ ? 1 : 0);
    }
    halve_ = new QCheckBox(this);
    halve_->setObjectName("sampleHalve");
    row->addWidget(halve_);
    row->addStretch(1);
    row->addWidget(write_);
    row->addWidget(stop_);
    v->addLayout(top);
    v->addLayout(row);
    note_ = new QLabel(this);
    note_->setObjectName("sampleLeftOut");
    note_->setVisible(left_out_ > 0);
    v->addWidget(note_);

    // a grid: the columns equally wide, the texts side by side however their headers wrap
    auto* columns = new QGridLayout();
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (size_t i = 0; i < runs_.size(); ++i) {
        const int col = static_cast<int>(i);
        auto* h = new QLabel(this);
        h->setTextFormat(Qt::RichText);
        h->setWordWrap(true);
        h->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);   // its width is the column's
        auto* t = new QTextEdit(this);
        t->setObjectName(QString("sampleText%1").arg(i));
        t->setReadOnly(true);
        t->setFont(mono);
        t->setMinimumWidth(160);
        // Weights…: a checkpoint file instead of the run's own (one `remote fetch --checkpoint` brought)
        auto* pick = new QToolButton(this);
        pick->setObjectName(QString("sampleWeights%1").arg(i));
        connect(pick, &QToolButton::clicked, this, [this, col] {
            const QString start = weights_[static_cast<size_t>(col)].isEmpty()
                                      ? QString::fromStdString(runs_[static_cast<size_t>(col)].checkpoint)
                                      : weights_[static_cast<size_t>(col)];
            const QString file = QFileDialog::getOpenFileName(
                this, tr("The weights run #%1 writes with").arg(runs_[static_cast<size_t>(col)].id),
                start.isEmpty() ? QString() : QFileInfo(start).absolutePath(), tr("Checkpoints (*.pt);;All files (*)"));
            if (file.isEmpty()) return;
            setWeights(col, file);
            write();
        });
        auto* head = new QHBoxLayout();
        head->addWidget(h, 1);
        head->addWidget(pick, 0, Qt::AlignTop);
        columns->addLayout(head, 0, col);
        columns->addWidget(t, 1, col);
        columns->setColumnStretch(col, 1);
        headers_.push_back(h);
        texts_.push_back(t);
        picks_.push_back(pick);
    }
    columns->setRowStretch(1, 1);
    v->addLayout(columns, 1);
    auto* bottom = new QHBoxLayout();
    status_ = new QLabel(this);
    status_->setObjectName("sampleStatus");
    status_->setWordWrap(true);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Close, this);
    bottom->addWidget(status_, 1);
    bottom->addWidget(box);
    v->addLayout(bottom);

    connect(write_, &QPushButton::clicked, this, &SampleDialog::write);
    connect(stop_, &QPushButton::clicked, this, &SampleDialog::stop);
    connect(box, &QDialogButtonBox::rejected, this, &SampleDialog::reject);
    connect(prompt_, &QLineEdit::returnPressed, this, &SampleDialog::write);
    timer_ = new QTimer(this);
    timer_->setInterval(50);
    connect(timer_, &QTimer::timeout, this, &SampleDialog::refresh);
    relabel();
    updateButtons();
    resize(std::min(1200, 300 * static_cast<int>(std::max<size_t>(2, runs_.size())) + 60), 520);
}

SampleDialog::~SampleDialog() { stop(); }

bool SampleDialog::writing() const { return thread_.joinable(); }

QString SampleDialog::textOf(int column) const { return texts_.at(static_cast<size_t>(column))->toPlainText(); }

QString SampleDialog::headerOf(int column) const { return headers_.at(static_cast<size_t>(column))->text(); }

void SampleDialog::setWeights(int column, const QString& file) {
    weights_.at(static_cast<size_t>(column)) = file;
    headers_[static_cast<size_t>(column)]->setProperty("step", QVariant());   // the step is the file's, once it loads
    relabel();
}

QString SampleDialog::weightsOf(int column) const { return weights_.at(static_cast<size_t>(column)); }

void SampleDialog::write() {
    stop();
    SampleOptions o;
    o.prompt = prompt_->text().toStdString();
    o.bytes = bytes_->value();
    o.temperature = temperature_->value();
    o.top_k = top_k_->value();
    o.seed = static_cast<uint64_t>(seed_->value());
    o.slide = halve_->isChecked() ? Slide::Half : Slide::Window;
    prompt_bytes_ = o.prompt;
    shared_ = std::make_shared<Shared>();
    const size_t n = runs_.size();
    shared_->text.assign(n, {});
    shared_->error.assign(n, {});
    shared_->step.assign(n, -1);
    shared_->missing.assign(n, false);
    shared_->changed.assign(n, true);
    for (QLabel* h : headers_) h->setProperty("step", QVariant());
    // One column after another on the dialog's one thread; every run draws the same numbers (the seed's).
    std::vector<std::string> weights;
    for (const QString& w : weights_) weights.push_back(w.toStdString());
    thread_ = std::thread([shared = shared_, runs = runs_, weights, o] {
        for (size_t i = 0; i < runs.size() && !shared->stop; ++i) {
            {
                std::lock_guard<std::mutex> lock(shared->m);
                shared->at = static_cast<int>(i);
            }
            try {
                TextSampler sampler(runs[i], weights[i]);
                {
                    std::lock_guard<std::mutex> lock(shared->m);
                    shared->step[i] = sampler.step();
                    shared->changed[i] = true;
                }
                sampler.write(o, [&shared, i](uint8_t b) {
                    std::lock_guard<std::mutex> lock(shared->m);
                    shared->text[i] += static_cast<char>(b);
                    shared->changed[i] = true;
                    return !shared->stop;
                });
            } catch (const std::exception& e) {
                const auto* config = dynamic_cast<const ConfigError*>(&e);   // its message, without the CLI's option name
                std::lock_guard<std::mutex> lock(shared->m);
                shared->error[i] = config ? config->message() : e.what();
                shared->missing[i] = config && config->path() == "--weights";
                shared->changed[i] = true;
            }
        }
        std::lock_guard<std::mutex> lock(shared->m);
        shared->done = true;
    });
    timer_->start();
    refresh();
    updateButtons();
}

void SampleDialog::stop() {
    if (!thread_.joinable()) return;
    shared_->stop = true;
    thread_.join();
    refresh();
}

void SampleDialog::reject() {
    stop();
    QDialog::reject();
}

void SampleDialog::refresh() {
    if (!shared_) return;
    bool done = false, relabel_headers = false;
    int at = -1;
    size_t written = 0;
    {
        std::lock_guard<std::mutex> lock(shared_->m);
        done = shared_->done;
        at = shared_->at;
        if (at >= 0) written = shared_->text[static_cast<size_t>(at)].size();
        for (size_t i = 0; i < runs_.size(); ++i) {
            if (!shared_->changed[i]) continue;
            shared_->changed[i] = false;
            QTextEdit* t = texts_[i];
            t->clear();
            QTextCursor cur(t->document());
            QTextCharFormat prompt, text;
            prompt.setForeground(palette().color(QPalette::PlaceholderText));
            cur.insertText(shown(prompt_bytes_), prompt);
            cur.insertText(shown(shared_->text[i]), text);
            if (!shared_->error[i].empty()) {
                QTextCharFormat bad;
                bad.setForeground(QColor("#c0392b"));
                QString why = QString::fromStdString(shared_->error[i]);
                if (shared_->missing[i]) why += "\n\n" + tr("%1 above this column writes with the weights of a checkpoint file.")
                                                           .arg(picks_[i]->text().remove('&'));
                cur.insertText((shared_->text[i].empty() && prompt_bytes_.empty() ? "" : "\n\n") + why, bad);
            }
            if (shared_->step[i] >= 0 && !headers_[i]->property("step").isValid()) {
                headers_[i]->setProperty("step", QVariant::fromValue<qlonglong>(shared_->step[i]));
                relabel_headers = true;
            }
        }
    }
    if (relabel_headers) relabel();
    if (done) {
        if (thread_.joinable()) thread_.join();
        timer_->stop();
        status_->setText(shared_->stop ? tr("Stopped.") : tr("Done: the same prompt and seed write the same text again."));
    } else if (at >= 0) {
        status_->setText(tr("Writing with run #%1: %2 of %3 bytes…").arg(runs_[static_cast<size_t>(at)].id).arg(written).arg(bytes_->value()));
    }
    updateButtons();
}

void SampleDialog::relabel() {
    setWindowTitle(tr("Write text with the runs' weights"));
    findChild<QLabel*>("promptLabel")->setText(tr("&Prompt:"));
    findChild<QLabel*>("bytesLabel")->setText(tr("&Bytes:"));
    findChild<QLabel*>("temperatureLabel")->setText(tr("&Temperature:"));
    findChild<QLabel*>("topKLabel")->setText(tr("Top &k:"));
    findChild<QLabel*>("seedLabel")->setText(tr("&Seed:"));
    top_k_->setSpecialValueText(tr("all"));
    top_k_->setToolTip(tr("Draw among the k likeliest bytes; all: every byte"));
    temperature_->setToolTip(tr("0: always the likeliest byte; higher: more surprising bytes"));
    prompt_->setToolTip(tr("The text every run continues; it reads bytes, so any text will do"));
    halve_->setText(tr("Keep &half the window past the context"));
    halve_->setToolTip(tr("Once the text is longer than the model's context, keep the last half of what it read and go on "
                          "from there, rather than read the whole context again for every byte: many times faster for "
                          "big models; each byte then reads half a context to a whole one"));
    write_->setText(tr("&Write"));
    stop_->setText(tr("St&op"));
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunInfo& r = runs_[i];
        const QVariant step = headers_[i]->property("step");
        QString h = QString("<span style=\"color:%1\">■</span> <b>#%2 %3</b> · %4")
                        .arg(run_color(r).name())
                        .arg(r.id)
                        .arg(QString::fromStdString(r.name).toHtmlEscaped())
                        .arg(QString::fromStdString(r.scheme).toHtmlEscaped());
        const QString file = QFileInfo(weights_[i]).fileName().toHtmlEscaped();
        if (step.isValid())
            h += " · " + (weights_[i].isEmpty() ? tr("weights of step %1").arg(step.toLongLong())
                                                : tr("weights of step %1 from %2").arg(QString::number(step.toLongLong()), file));
        else if (!weights_[i].isEmpty())
            h += " · " + tr("weights from %1").arg(file);
        headers_[i]->setText(h);
        headers_[i]->setToolTip(weights_[i]);
        picks_[i]->setText(tr("Weights…"));
        picks_[i]->setToolTip(tr("Write with the weights of a checkpoint file (.pt) instead of the run's own: one that "
                                 "normlab-cli remote fetch --checkpoint brought from a server, or a copy of an earlier one"));
    }
    note_->setText(tr("%n more selected run(s) left out: the first %1 are shown side by side.", nullptr, left_out_).arg(kMaxRuns));
}

void SampleDialog::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) relabel();
    QDialog::changeEvent(e);
}

void SampleDialog::updateButtons() {
    const bool busy = writing();
    stop_->setEnabled(busy);
    for (QToolButton* p : picks_) p->setEnabled(!busy);
}

}  // namespace normlab

#include "playback_bar.h"

#include "simulation_controller.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace schedscope::gui {

QString format_sim_time(SimTime ns)
{
    const double s = static_cast<double>(ns) / 1e9;
    if (s < 1.0)
        return QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', 3);
    return QStringLiteral("%1 s").arg(s, 0, 'f', 3);
}

QString rate_text(double asked, double actual)
{
    // Keeping up within this share of the speed asked for says nothing new.
    constexpr double kKeepsUpShare = 0.8;
    if (actual < 0 || (asked > 0 && actual >= kKeepsUpShare * asked))
        return {};
    const QString rate = actual >= 1 ? QString::number(actual, 'g', 3) : QString::number(actual, 'g', 2);
    return asked > 0 ? QObject::tr("running at %1x real time: the simulation cannot keep up").arg(rate)
                     : QObject::tr("%1x real time").arg(rate);
}

PlaybackBar::PlaybackBar(QWidget *parent) : QWidget(parent)
{
    // Two rows: the controls, then the timeline across the whole width, so
    // a narrow window squeezes neither the timeline to its handle nor the
    // panes to make room for the controls.
    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(4, 2, 4, 2);
    rows->setSpacing(0);
    auto *row = new QHBoxLayout;
    auto *timeline_row = new QHBoxLayout;
    rows->addLayout(row);
    rows->addLayout(timeline_row);
    auto button = [this](const QString &text, const QString &tip, QStyle::StandardPixmap icon) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setIcon(style()->standardIcon(icon));
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        return b;
    };
    play_ = button(tr("Play"), tr("Play or pause the comparison (Space)"), QStyle::SP_MediaPlay);
    step_ = button(tr("Step"), tr("Advance one scheduler tick (.)"), QStyle::SP_MediaSkipForward);
    reset_ = button(tr("Reset"), tr("Back to time zero (Home)"), QStyle::SP_MediaSkipBackward);
    // Space belongs to the window's Play action; buttons must not eat it.
    for (QToolButton *b : {play_, step_, reset_})
        b->setFocusPolicy(Qt::NoFocus);
    connect(play_, &QToolButton::clicked, this, &PlaybackBar::playToggled);
    connect(step_, &QToolButton::clicked, this, &PlaybackBar::stepRequested);
    connect(reset_, &QToolButton::clicked, this, &PlaybackBar::resetRequested);
    row->addWidget(play_);
    row->addWidget(step_);
    row->addWidget(reset_);

    row->addWidget(new QLabel(tr("Speed"), this));
    speed_ = new QSlider(Qt::Horizontal, this);
    speed_->setRange(0, kSpeedSteps);
    speed_->setMinimumWidth(80);
    speed_->setMaximumWidth(160);
    speed_->setFocusPolicy(Qt::NoFocus);
    speed_->setToolTip(tr("Simulated time per real second: from 1/1000 (slow motion) to as fast as possible"));
    speed_label_ = new QLabel(this);
    speed_label_->setMinimumWidth(90);
    connect(speed_, &QSlider::valueChanged, this, [this](int v) {
        updateSpeedLabel(speedForPosition(v));
        emit speedChanged(speedForPosition(v));
    });
    row->addWidget(speed_);
    row->addWidget(speed_label_);
    rate_label_ = new QLabel(this);
    rate_label_->setStyleSheet(QStringLiteral("color: #8a4a00;"));
    rate_label_->setToolTip(tr("Simulated time per real second reached over the last second of playing"));
    row->addWidget(rate_label_);

    timeline_ = new QSlider(Qt::Horizontal, this);
    timeline_->setRange(0, 0);
    timeline_->setFocusPolicy(Qt::NoFocus);
    timeline_->setToolTip(tr("Drag to scrub back and forth over the simulated time reached so far"));
    connect(timeline_, &QSlider::valueChanged, this, [this](int v) {
        // Only the user's moves: programmatic updates are blocked in setTime.
        emit seekRequested(static_cast<SimTime>(v) * kTimelineUnitNs);
    });
    timeline_row->addWidget(timeline_, 1);
    row->addStretch(1);
    // Each label as wide as its text needs (a fixed 150 px let
    // "t = 12.345 s / 60.000 s" run into the frame rate beside it).
    time_label_ = new QLabel(this);
    row->addWidget(time_label_);
    row->addSpacing(12);
    fps_label_ = new QLabel(this);
    fps_label_->setMinimumWidth(fps_label_->fontMetrics().horizontalAdvance(QStringLiteral("000 fps")));
    row->addWidget(fps_label_);
    setSpeed(SimulationController::kDefaultSpeed);
    setTime(0, 0);
}

double PlaybackBar::speedForPosition(int position)
{
    if (position >= kSpeedSteps)
        return 0; // as fast as possible
    // Logarithmic from kMinSpeed to kMaxSpeed over the other steps.
    const double lo = std::log10(SimulationController::kMinSpeed), hi = std::log10(SimulationController::kMaxSpeed);
    return std::pow(10.0, lo + (hi - lo) * position / (kSpeedSteps - 1));
}

int PlaybackBar::positionForSpeed(double speed)
{
    if (speed <= 0)
        return kSpeedSteps;
    const double lo = std::log10(SimulationController::kMinSpeed), hi = std::log10(SimulationController::kMaxSpeed);
    return static_cast<int>(std::lround((std::log10(speed) - lo) / (hi - lo) * (kSpeedSteps - 1)));
}

void PlaybackBar::updateSpeedLabel(double speed)
{
    if (speed <= 0)
        speed_label_->setText(tr("max"));
    else if (speed < 1)
        speed_label_->setText(tr("1/%1 real time").arg(std::lround(1.0 / speed)));
    else
        speed_label_->setText(tr("%1x real time").arg(speed, 0, 'g', 3));
}

void PlaybackBar::setSpeed(double speed)
{
    const QSignalBlocker block(speed_);
    speed_->setValue(positionForSpeed(speed));
    updateSpeedLabel(speed);
}

void PlaybackBar::setPlaying(bool playing)
{
    play_->setText(playing ? tr("Pause") : tr("Play"));
    play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    playing_ = playing;
    // A frame rate is a property of playing: paused, the last figure would
    // describe nothing on screen.
    if (!playing) {
        fps_label_->clear();
        rate_label_->clear();
    }
}

void PlaybackBar::setActualRate(double rate)
{
    if (playing_)
        rate_label_->setText(rate_text(speedForPosition(speed_->value()), rate));
}

QString PlaybackBar::rateText() const { return rate_label_->text(); }

void PlaybackBar::setTime(SimTime now, SimTime furthest)
{
    furthest_ = furthest;
    const QSignalBlocker block(timeline_);
    timeline_->setRange(0, static_cast<int>(furthest / kTimelineUnitNs));
    if (!timeline_->isSliderDown())
        timeline_->setValue(static_cast<int>(now / kTimelineUnitNs));
    time_label_->setText(tr("t = %1 / %2").arg(format_sim_time(now), format_sim_time(furthest)));
}

QString PlaybackBar::fpsText() const { return fps_label_->text(); }

void PlaybackBar::setFps(double fps)
{
    if (playing_)
        fps_label_->setText(tr("%1 fps").arg(fps, 0, 'f', 0));
}

} // namespace schedscope::gui

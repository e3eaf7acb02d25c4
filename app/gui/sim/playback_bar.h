#pragma once
// Play/pause, step one tick, reset, speed and the timeline scrubber. It only
// emits what the user asked for and shows what the controller reports; the
// main window connects it to the SimulationController.

#include "engine/sim_types.h"

#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace schedscope::gui {

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    explicit PlaybackBar(QWidget *parent = nullptr);

    // Slider position <-> simulated seconds per real second (0 = fastest).
    static double speedForPosition(int position);
    static int positionForSpeed(double speed);
    static constexpr int kSpeedSteps = 100; // the last step is "as fast as possible"

    QToolButton *playButton() const { return play_; }
    QSlider *timeline() const { return timeline_; }
    QSlider *speedSlider() const { return speed_; }
    QString fpsText() const;
    QString rateText() const;

public slots:
    void setPlaying(bool playing);
    void setTime(schedscope::SimTime now, schedscope::SimTime furthest);
    void setSpeed(double speed);
    void setFps(double fps);
    // The simulated seconds the comparison actually advanced per real
    // second while playing (ComparisonPage measures it); shown when it falls
    // short of the speed asked for, and at "max".
    void setActualRate(double sim_seconds_per_real_second);

signals:
    void playToggled();
    void stepRequested();
    void resetRequested();
    void speedChanged(double speed);
    void seekRequested(schedscope::SimTime t);

private:
    void updateSpeedLabel(double speed);

    QToolButton *play_;
    QToolButton *step_;
    QToolButton *reset_;
    QSlider *speed_;
    QLabel *speed_label_;
    QLabel *rate_label_;
    QSlider *timeline_;
    QLabel *time_label_;
    QLabel *fps_label_;
    SimTime furthest_ = 0;
    bool playing_ = false;
};

// The timeline slider counts in these units (int range).
inline constexpr SimTime kTimelineUnitNs = 1'000'000; // 1 ms

QString format_sim_time(SimTime ns);

// What the bar says of the real rate: "" when it keeps up with the speed
// asked for (within a fifth), else "running at 0.05x real time"; at "max"
// (asked 0) always the rate reached.
QString rate_text(double asked, double actual);

} // namespace schedscope::gui

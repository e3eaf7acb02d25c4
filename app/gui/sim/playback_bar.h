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

public slots:
    void setPlaying(bool playing);
    void setTime(schedscope::SimTime now, schedscope::SimTime furthest);
    void setSpeed(double speed);
    void setFps(double fps);

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
    QSlider *timeline_;
    QLabel *time_label_;
    QLabel *fps_label_;
    SimTime furthest_ = 0;
    bool playing_ = false;
};

// The timeline slider counts in these units (int range).
inline constexpr SimTime kTimelineUnitNs = 1'000'000; // 1 ms

QString format_sim_time(SimTime ns);

} // namespace schedscope::gui

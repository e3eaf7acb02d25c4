// The simulation half of the GUI: frames and token positions against the
// engine, the controller's lockstep, scrubbing and shutdown, checkpoints.
#include "sim/checkpoint_store.h"
#include "sim/frame_builder.h"
#include "sim/pane_scene.h"
#include "sim/run_setup.h"
#include "sim/simulation_controller.h"

#include "catalog/catalog.h"
#include "scenario/run.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

Scenario numa_scenario(const std::string &topology = "synthetic:pack:2 [numa] l3:1 core:4 pu:2")
{
    Scenario s;
    s.name = "test";
    s.topology = topology;
    s.workload = {"numa01", {{"memory_mb", "64"}, {"loops", "4"}}};
    s.policies = {{"sched-domains", {}}, {"autonuma", {}}};
    return s;
}

// Everything a pane draws from, compared field by field.
void require_same_state(const PaneFrame &a, const PaneFrame &b)
{
    REQUIRE(a.pus.size() == b.pus.size());
    for (size_t c = 0; c < a.pus.size(); ++c) {
        CHECK(a.pus[c].current == b.pus[c].current);
        CHECK(a.pus[c].queued == b.pus[c].queued);
    }
    REQUIRE(a.tasks.size() == b.tasks.size());
    for (size_t t = 0; t < a.tasks.size(); ++t) {
        CHECK(a.tasks[t].cpu == b.tasks[t].cpu);
        CHECK(a.tasks[t].state == b.tasks[t].state);
    }
    CHECK(a.proc_node_bytes == b.proc_node_bytes);
    CHECK(a.figures.migrations == b.figures.migrations);
    CHECK(a.figures.progress == b.figures.progress);
    CHECK(a.figures.idle_pct == b.figures.idle_pct);
    REQUIRE(a.caches.size() == b.caches.size());
    for (size_t i = 0; i < a.caches.size(); ++i)
        CHECK(a.caches[i].heat == b.caches[i].heat);
}

} // namespace

TEST_CASE("after stepping a scenario, tokens sit where the engine has the tasks", "[sim][scene]")
{
    const Scenario s = numa_scenario();
    const auto topo = scenario_topology(s);
    Simulation sim = build_simulation(s, s.policies[1], 1, topo);
    sim.run_until(120'000'000);
    RecordingCursor cursor;
    const PaneFrame frame = build_pane_frame(sim, true, cursor);
    TextMetrics tm;
    const PaneGeometry g = PaneGeometry::compute(*topo, pane_layout_options(tm));
    const PaneScene scene = PaneScene::compute(g, frame);

    REQUIRE(g.pu_slot.size() == static_cast<size_t>(topo->pu_count()));
    int running = 0, idle = 0;
    for (int c = 0; c < topo->pu_count(); ++c) {
        const Runqueue &rq = sim.rq(c);
        // The slot is inside the PU's own box.
        const int box = g.layout.box_of(topo->pu(c));
        REQUIRE(box >= 0);
        CHECK(g.layout.boxes()[box].rect.contains(g.pu_slot[c]));
        if (rq.current >= 0) {
            ++running;
            const Token *t = scene.token(rq.current);
            REQUIRE(t);
            CHECK(t->running);
            CHECK(t->cpu == c);
            CHECK(t->proc == sim.task(rq.current).proc);
            CHECK(g.pu_slot[c].contains(t->rect));
        }
        for (TaskId q : rq.queue) {
            if (const Token *t = scene.token(q)) {
                CHECK_FALSE(t->running);
                CHECK(t->cpu == c);
                CHECK(g.pu_slot[c].contains(t->rect));
            }
        }
        const bool listed_idle = std::find(scene.idle_pus.begin(), scene.idle_pus.end(), c) != scene.idle_pus.end();
        CHECK(listed_idle == sim.cpu_idle(c));
        idle += listed_idle;
    }
    CHECK(running > 0);
    CHECK(running + idle <= topo->pu_count());
    // Node memory bars add up to the processes' resident memory.
    double bars = 0;
    for (const MemoryBar &m : scene.memory)
        bars += m.bytes;
    CHECK(bars == Approx(frame.total_memory_bytes));
    // Every migration in the frame has a trail between the two PUs' slots.
    for (const Trail &t : scene.trails) {
        CHECK(g.pu_slot[t.from_cpu].contains(t.x1, t.y1));
        CHECK(g.pu_slot[t.to_cpu].contains(t.x2, t.y2));
    }
}

TEST_CASE("past the recording's limits, frames still animate moves and resend merged samples", "[sim][scene]")
{
    SimConfig cfg;
    cfg.sample_interval_ns = 1'000'000;
    cfg.limits = RecordingLimits{50, 20, 8};
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:2 l3:1 core:2 pu:1")),
                   make_policy("sched-domains", {}, "t"), cfg);
    auto [name, params] = parse_name_params("hackbench:groups=1,loops=20", "t");
    find_workload(name, "t").build(sim, params, "t");

    RecordingCursor cursor;
    Recording mirror;
    sim.run_until(3'000'000);
    const PaneFrame first = build_pane_frame(sim, true, cursor);
    CHECK(apply_to_mirror(mirror, first));
    const std::int64_t moves_before = sim.migrations_total();

    sim.run_to_end();
    const Recording &rec = sim.recording();
    REQUIRE(rec.sample_merges > 0);
    REQUIRE(rec.migrations_dropped > 0);
    const PaneFrame last = build_pane_frame(sim, true, cursor);
    // Moves past the limit are still there to animate, and counted.
    CHECK(last.moves_total == sim.migrations_total() - moves_before);
    CHECK(last.moves.size() == std::min<std::size_t>(kMaxMovesPerFrame, static_cast<std::size_t>(last.moves_total)));
    CHECK(last.figures.migrations == sim.migrations_total());
    CHECK(last.figures.migrations_by_class == rec.samples.back().migrations_by_class);
    const MigrationRecord &newest = sim.recent_migration(sim.migrations_total() - 1);
    CHECK(last.moves.back().task == newest.task);
    CHECK(last.moves.back().to_cpu == newest.to_cpu);
    // The samples were merged since the first frame: all of them come again,
    // and the mirror ends up equal to the recording.
    CHECK(last.samples_before == 0);
    CHECK(apply_to_mirror(mirror, last));
    REQUIRE(mirror.samples.size() == rec.samples.size());
    for (std::size_t i = 0; i < rec.samples.size(); ++i)
        CHECK(mirror.samples[i].time_ns == rec.samples[i].time_ns);
    CHECK(mirror.decisions.size() == rec.decisions.size());
    // Nothing new: nothing changes.
    CHECK_FALSE(apply_to_mirror(mirror, build_pane_frame(sim, true, cursor)));
}

TEST_CASE("a long queue ends in an overflow marker inside the slot", "[sim][scene]")
{
    Topology topo = *scenario_topology(numa_scenario("synthetic:pu:2"));
    TextMetrics tm;
    const PaneGeometry g = PaneGeometry::compute(topo, pane_layout_options(tm));
    PaneFrame f;
    f.pus.resize(2);
    f.pus[0].current = 0;
    for (TaskId t = 1; t <= 40; ++t)
        f.pus[0].queued.push_back(t);
    f.tasks.resize(41);
    const PaneScene sc = PaneScene::compute(g, f);
    REQUIRE(sc.overflows.size() == 1);
    const int shown = static_cast<int>(sc.tokens.size()) - 1;
    CHECK(sc.overflows[0].hidden == 40 - shown);
    CHECK(g.pu_slot[0].contains(sc.overflows[0].rect));
    CHECK(sc.idle_pus == std::vector<int>{1});
}

TEST_CASE("checkpoints thin out and keep time zero", "[sim][checkpoint]")
{
    CheckpointStore store;
    SimTime t = 0;
    for (int i = 0; i < 200; ++i) {
        store.add(t, {});
        t = store.next_due();
    }
    CHECK(store.size() <= kMaxCheckpoints);
    CHECK(store.entries().front().time_ns == 0);
    CHECK(store.interval() > kInitialCheckpointIntervalNs);
    const auto *e = store.at_or_before(store.entries().back().time_ns - 1);
    REQUIRE(e);
    CHECK(e->time_ns < store.entries().back().time_ns);
    CHECK(store.at_or_before(0)->time_ns == 0);
}

TEST_CASE("the controller runs panes in lockstep and the scrubber returns exactly", "[sim][controller]")
{
    SimulationController c;
    c.load(make_run_setup(numa_scenario()));
    REQUIRE(c.waitLoaded());
    CHECK(c.time() == 0);
    CHECK_FALSE(c.isPlaying()); // paused at time zero

    REQUIRE(c.runTo(400'000'000));
    const FrameSetPtr early = c.frame();
    REQUIRE(early->time_ns == 400'000'000);
    REQUIRE(early->panes.size() == 2);
    const size_t samples_early = c.recording(0).samples.size();
    CHECK(samples_early > 0);

    REQUIRE(c.runTo(1'100'000'000));
    const SimTime later = c.frame()->time_ns; // the run may finish before 1.1 s
    CHECK(later > 400'000'000);
    CHECK(c.recording(0).samples.size() > samples_early);

    REQUIRE(c.runTo(400'000'000)); // scrub back
    const FrameSetPtr again = c.frame();
    CHECK(again->time_ns == 400'000'000);
    CHECK_FALSE(again->continuous);
    CHECK(again->furthest_ns == later);
    for (size_t p = 0; p < 2; ++p)
        require_same_state(early->panes[p], again->panes[p]);
    // The mirrored recording was cut back too.
    CHECK(c.recording(0).samples.size() == samples_early);

    c.reset();
    REQUIRE(c.waitLoaded());
    CHECK(c.time() == 0);
}

TEST_CASE("a seek past the end of a finished run lands exactly where asked", "[sim][controller]")
{
    // Once every pane has finished nothing more happens, but time still
    // passes: where the seek lands must not depend on the worker's slice
    // sizes, which follow wall time (a loaded machine stopped at the first
    // slice boundary after the end).
    SimulationController c;
    c.load(make_run_setup(numa_scenario()));
    REQUIRE(c.runTo(3'000'000'000));
    CHECK(c.time() == 3'000'000'000);
    CHECK(c.frame()->all_finished);
    REQUIRE(c.runTo(3'500'000'000));
    CHECK(c.time() == 3'500'000'000);
}

TEST_CASE("step advances one tick, play advances, speed is clamped", "[sim][controller]")
{
    SimulationController c;
    c.load(make_run_setup(numa_scenario()));
    REQUIRE(c.waitLoaded());
    c.stepTick();
    REQUIRE(c.waitLoaded());
    CHECK(c.time() == 1'000'000);
    c.setSpeed(100);
    CHECK(c.speed() == SimulationController::kMaxSpeed);
    c.setSpeed(0); // as fast as possible
    c.play();
    CHECK(c.isPlaying());
    QElapsedTimer t;
    t.start();
    while (c.time() <= 1'000'000 && t.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    c.pause();
    CHECK(c.time() > 1'000'000);
}

TEST_CASE("playback keeps its schedule after the GUI thread was blocked past several frames", "[sim][controller]")
{
    // Frames are requested by a one-shot timer re-armed when each frame
    // arrives; a GUI thread busy for several periods (a slow chart redraw)
    // must neither stop playback nor leave it one frame behind for good.
    SimulationController c;
    c.load(make_run_setup(numa_scenario()));
    REQUIRE(c.waitLoaded());
    int frames = 0;
    QObject::connect(&c, &SimulationController::frameReady, [&frames](const FrameSetPtr &) { ++frames; });
    c.setSpeed(0.5);
    c.play();
    auto pump = [](int ms) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms)
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    };
    pump(100);
    QThread::msleep(5 * SimulationController::kFrameIntervalMs); // the GUI thread is busy
    const int before = frames;
    const SimTime t_before = c.time();
    pump(300);
    c.pause();
    CHECK(c.isPlaying() == false);
    // 300 ms at a 16 ms period is 18 frames when the machine keeps up; a
    // loaded test host may deliver fewer, but playback must go on.
    CHECK(frames - before >= 3);
    CHECK(c.time() > t_before);
}

TEST_CASE("re-running with changed parameters returns to the same instant", "[sim][controller]")
{
    SimulationController c;
    c.load(make_run_setup(numa_scenario()));
    REQUIRE(c.runTo(300'000'000));
    c.setPolicy(0, {"sched-domains", {{"cache_hot_time_ms", "10"}}});
    REQUIRE(c.waitLoaded());
    CHECK(c.time() == 300'000'000);
    CHECK(c.setup()->policies[0].params.at("cache_hot_time_ms") == "10");
}

TEST_CASE("bad setups are refused with a message before anything runs", "[sim][controller]")
{
    Scenario s = numa_scenario();
    s.policies = {{"no-such-policy", {}}};
    CHECK_THROWS_WITH(make_run_setup(s), Catch::Contains("no-such-policy"));
    s = numa_scenario();
    s.policies = {{"sched-domains", {{"cache_hot_time_ms", "soon"}}}};
    CHECK_THROWS_WITH(make_run_setup(s), Catch::Contains("cache_hot_time_ms"));
    s = numa_scenario();
    s.policies.assign(5, {"simple", {}});
    CHECK_THROWS_WITH(make_run_setup(s), Catch::Contains("at most"));
}

TEST_CASE("the default comparison runs on a 2-PU machine and on a NUMA machine", "[sim][controller]")
{
    for (const std::string spec : {"synthetic:pu:2", "synthetic:pack:2 [numa] core:2 pu:1"}) {
        INFO(spec);
        const auto topo = std::make_shared<const Topology>(load_topology(spec));
        const Scenario s = default_comparison(*topo, spec);
        CHECK(s.policies.size() == 2);
        SimulationController c;
        c.load(make_run_setup(s, topo));
        REQUIRE(c.runTo(200'000'000));
        CHECK(c.frame()->panes.size() == 2);
    }
}

TEST_CASE("destroying a controller while it plays at full speed neither hangs nor crashes", "[sim][controller]")
{
    QElapsedTimer t;
    {
        SimulationController c;
        c.load(make_run_setup(numa_scenario("sample:numa-8node-64")));
        REQUIRE(c.waitLoaded());
        c.setSpeed(0);
        c.play();
        QElapsedTimer run;
        run.start();
        while (run.elapsed() < 300)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        t.start();
    }
    CHECK(t.elapsed() < 3000);
}

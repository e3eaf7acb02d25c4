// golden_check: runs schedscope-cli on the cases of tests/golden/cases.txt
// and compares what each writes (its stdout and every file it creates in an
// empty working directory) with the reference copy under tests/golden/NAME/.
// A model change then shows as a reviewable diff of those files instead of a
// "byte-identical" claimed by hand; `--update` rewrites them
// (scripts/update-golden.sh).
//
// On a mismatch JSON files are compared field by field, so the report names
// the fields that moved rather than a column on a one-line document.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// Mismatches listed per file before the rest are only counted.
constexpr int kMaxReportedDifferences = 12;
// The file stdout is kept in, beside the files the case writes.
constexpr const char *kStdoutName = "stdout.txt";

struct Case {
    std::string name;
    std::vector<std::string> args;
    int line = 0;
};

struct Options {
    std::string cli, samples, test_data, cases, golden, only, scratch;
    bool update = false;
    // Placeholder -> absolute directory, substituted into the arguments and
    // put back into the outputs, so no output holds a path of this checkout.
    std::vector<std::pair<std::string, std::string>> dirs() const
    {
        return {{"@SAMPLES@", samples}, {"@TESTDATA@", test_data}};
    }
};

[[noreturn]] void die(const std::string &message)
{
    std::cerr << "golden_check: " << message << "\n";
    std::exit(2);
}

// Splits on blanks; '...' keeps blanks inside one argument (synthetic
// topology strings have them).
std::vector<std::string> split_words(const std::string &line, const std::string &where)
{
    std::vector<std::string> words;
    std::string word;
    bool in_word = false, quoted = false;
    for (char c : line) {
        if (c == '\'') {
            quoted = !quoted;
            in_word = true;
        } else if (!quoted && (c == ' ' || c == '\t')) {
            if (in_word)
                words.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quoted)
        die(where + ": unterminated quote");
    if (in_word)
        words.push_back(word);
    return words;
}

std::string replace_all(std::string s, const std::string &from, const std::string &to)
{
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
        s.replace(p, from.size(), to);
    return s;
}

std::string substitute(std::string s, const Options &o)
{
    for (auto &[key, dir] : o.dirs())
        s = replace_all(s, key, dir);
    return s;
}

std::vector<Case> read_cases(const Options &o)
{
    std::ifstream in(o.cases);
    if (!in)
        die("cannot read " + o.cases);
    std::vector<Case> cases;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#')
            continue;
        auto words = split_words(line, o.cases + ":" + std::to_string(n));
        if (words.empty())
            continue;
        Case c{words.front(), {}, n};
        for (size_t i = 1; i < words.size(); ++i)
            c.args.push_back(substitute(words[i], o));
        for (auto &other : cases)
            if (other.name == c.name)
                die(o.cases + ":" + std::to_string(n) + ": case '" + c.name + "' listed twice");
        cases.push_back(std::move(c));
    }
    return cases;
}

std::string read_file(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs the CLI in `dir` with stdout and stderr to files there; returns the
// exit status (or -1 if it did not exit normally).
int run_cli(const Options &o, const Case &c, const fs::path &dir)
{
    std::vector<char *> argv;
    argv.push_back(const_cast<char *>(o.cli.c_str()));
    for (auto &a : c.args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    const std::string out = (dir / kStdoutName).string(), err = (dir.parent_path() / (c.name + ".stderr")).string();
    const pid_t pid = fork();
    if (pid < 0)
        die("fork failed");
    if (pid == 0) {
        const int fo = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int fe = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0 || ::chdir(dir.c_str()) != 0)
            _exit(127);
        ::dup2(fo, STDOUT_FILENO);
        ::dup2(fe, STDERR_FILENO);
        ::execv(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Files under `root` as paths relative to it, sorted.
std::vector<std::string> list_files(const fs::path &root)
{
    std::vector<std::string> files;
    if (!fs::is_directory(root))
        return files;
    for (auto &e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file())
            files.push_back(fs::relative(e.path(), root).generic_string());
    std::sort(files.begin(), files.end());
    return files;
}

void write_file(const fs::path &p, const std::string &text)
{
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        die("cannot write " + p.string());
}

bool is_flat(const nlohmann::json &j)
{
    if (j.is_object())
        return false;
    if (!j.is_array())
        return true;
    return std::all_of(j.begin(), j.end(), [](const nlohmann::json &e) {
        return e.is_primitive() ||
               (e.is_array() && std::all_of(e.begin(), e.end(), [](auto &x) { return x.is_primitive(); }));
    });
}

// One key per line, but arrays of numbers (matrix rows, histograms) on one
// line: readable in a diff without tripling the file.
void dump_for_review(const nlohmann::json &j, int depth, std::string &out)
{
    const std::string pad(static_cast<size_t>(depth + 1), ' '), close(static_cast<size_t>(depth), ' ');
    if (is_flat(j) || j.empty()) {
        out += j.dump();
        return;
    }
    const bool object = j.is_object();
    out += object ? "{\n" : "[\n";
    size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
        out += pad;
        if (object)
            out += nlohmann::json(it.key()).dump() + ": ";
        dump_for_review(*it, depth + 1, out);
        out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += close + (object ? "}" : "]");
}

// What is kept of an output: absolute directories put back as their
// placeholders, and JSON documents laid out for review (the CLI writes
// results on one line, which no diff could review). Re-dumping keeps every
// number exactly: nlohmann prints the shortest text that reads back the same
// double.
std::string normalise(const fs::path &file, const Options &o)
{
    std::string text = read_file(file);
    for (auto &[key, dir] : o.dirs())
        text = replace_all(text, dir, key);
    if (file.extension() == ".json") {
        const auto j = nlohmann::json::parse(text, nullptr, false);
        if (!j.is_discarded()) {
            text.clear();
            dump_for_review(j, 0, text);
            text += "\n";
        }
    }
    return text;
}

std::string brief(const nlohmann::json &j)
{
    std::string s = j.dump();
    return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

void diff_json(const nlohmann::json &want, const nlohmann::json &got, const std::string &path,
               std::vector<std::string> &out, int &count)
{
    if (want == got)
        return;
    if (want.type() == got.type() && want.is_object()) {
        for (auto &[k, v] : want.items())
            if (got.contains(k))
                diff_json(v, got[k], path + "/" + k, out, count);
            else if (++count <= kMaxReportedDifferences)
                out.push_back(path + "/" + k + ": gone (was " + brief(v) + ")");
        for (auto &[k, v] : got.items())
            if (!want.contains(k) && ++count <= kMaxReportedDifferences)
                out.push_back(path + "/" + k + ": new (" + brief(v) + ")");
        return;
    }
    if (want.type() == got.type() && want.is_array() && want.size() == got.size()) {
        for (size_t i = 0; i < want.size(); ++i)
            diff_json(want[i], got[i], path + "/" + std::to_string(i), out, count);
        return;
    }
    if (++count <= kMaxReportedDifferences)
        out.push_back((path.empty() ? "/" : path) + ": " + brief(want) + " -> " + brief(got));
}

std::vector<std::string> split_lines(const std::string &s)
{
    std::vector<std::string> lines;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    return lines;
}

// Line by line, same line numbers: the outputs are tables and traces whose
// length rarely changes without everything after it changing too.
void diff_text(const std::string &want, const std::string &got, std::vector<std::string> &out, int &count)
{
    const auto a = split_lines(want), b = split_lines(got);
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const std::string *x = i < a.size() ? &a[i] : nullptr, *y = i < b.size() ? &b[i] : nullptr;
        if (x && y && *x == *y)
            continue;
        if (++count > kMaxReportedDifferences)
            continue;
        out.push_back("line " + std::to_string(i + 1) + ":");
        out.push_back("  - " + (x ? *x : std::string("(none)")));
        out.push_back("  + " + (y ? *y : std::string("(none)")));
    }
    if (count == 0) // same lines, different bytes: line ends or a final newline
        out.push_back("differs in line endings or the final newline");
}

// Compares one case's output directory with its reference; prints what moved.
bool compare(const fs::path &want_dir, const fs::path &got_dir, const std::string &name)
{
    const auto want = list_files(want_dir), got = list_files(got_dir);
    bool same = true;
    for (auto &f : want)
        if (!std::binary_search(got.begin(), got.end(), f)) {
            std::cout << name << ": " << f << " was not written\n";
            same = false;
        }
    for (auto &f : got)
        if (!std::binary_search(want.begin(), want.end(), f)) {
            std::cout << name << ": " << f << " is new (no reference)\n";
            same = false;
        }
    for (auto &f : want) {
        if (!std::binary_search(got.begin(), got.end(), f))
            continue;
        const std::string a = read_file(want_dir / f), b = read_file(got_dir / f);
        if (a == b)
            continue;
        same = false;
        std::vector<std::string> lines;
        int count = 0;
        const auto ja = nlohmann::json::parse(a, nullptr, false), jb = nlohmann::json::parse(b, nullptr, false);
        if (!ja.is_discarded() && !jb.is_discarded() && (ja.is_object() || ja.is_array()))
            diff_json(ja, jb, "", lines, count);
        else
            diff_text(a, b, lines, count);
        std::cout << name << ": " << f << " differs from tests/golden/" << name << "/" << f << "\n";
        for (auto &l : lines)
            std::cout << "    " << l << "\n";
        if (count > kMaxReportedDifferences)
            std::cout << "    ... and " << (count - kMaxReportedDifferences) << " more\n";
    }
    return same;
}

bool run_case(const Options &o, const Case &c)
{
    const fs::path dir = fs::path(o.scratch) / c.name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    const int status = run_cli(o, c, dir);
    if (status != 0) {
        std::cout << c.name << ": schedscope-cli exited with " << status << "; its stderr:\n"
                  << read_file(dir.parent_path() / (c.name + ".stderr"));
        return false;
    }
    for (auto &f : list_files(dir))
        write_file(dir / f, normalise(dir / f, o));
    const fs::path want = fs::path(o.golden) / c.name;
    if (o.update) {
        fs::remove_all(want);
        fs::create_directories(want.parent_path());
        fs::copy(dir, want, fs::copy_options::recursive);
        fs::remove_all(dir);
        std::cout << "updated " << c.name << "\n";
        return true;
    }
    const bool same = compare(want, dir, c.name);
    if (same)
        fs::remove_all(dir);
    else
        std::cout << c.name << ": outputs kept in " << dir.string()
                  << "; if the change is intended: bash scripts/update-golden.sh, then review git diff tests/golden\n";
    return same;
}

Options parse_args(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                die(a + " needs a value");
            return argv[++i];
        };
        if (a == "--cli")
            o.cli = value();
        else if (a == "--samples")
            o.samples = value();
        else if (a == "--test-data")
            o.test_data = value();
        else if (a == "--cases")
            o.cases = value();
        else if (a == "--golden")
            o.golden = value();
        else if (a == "--case")
            o.only = value();
        else if (a == "--scratch")
            o.scratch = value();
        else if (a == "--update")
            o.update = true;
        else
            die("unknown argument '" + a + "'");
    }
    if (o.cli.empty() || o.samples.empty() || o.test_data.empty() || o.cases.empty() || o.golden.empty() ||
        o.scratch.empty())
        die("usage: golden_check --cli PATH --samples DIR --test-data DIR --cases FILE --golden DIR --scratch DIR "
            "[--case NAME] [--update]");
    // The CLI runs in its own directory: relative paths would point elsewhere.
    for (std::string *path : {&o.cli, &o.samples, &o.test_data, &o.cases, &o.golden, &o.scratch})
        *path = fs::absolute(*path).lexically_normal().string();
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    const Options o = parse_args(argc, argv);
    const auto cases = read_cases(o);
    bool ok = true, found = false;
    for (auto &c : cases) {
        if (!o.only.empty() && c.name != o.only)
            continue;
        found = true;
        ok = run_case(o, c) && ok;
    }
    if (!found)
        die("no case '" + o.only + "' in " + o.cases);
    // A full update also drops the references of cases no longer listed.
    if (o.update && o.only.empty())
        for (auto &e : fs::directory_iterator(o.golden)) {
            if (!e.is_directory())
                continue;
            const std::string name = e.path().filename().string();
            if (std::none_of(cases.begin(), cases.end(), [&](const Case &c) { return c.name == name; })) {
                fs::remove_all(e.path());
                std::cout << "removed " << name << " (no longer in " << o.cases << ")\n";
            }
        }
    return ok ? 0 : 1;
}

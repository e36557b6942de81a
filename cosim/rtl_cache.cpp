// SPDX-License-Identifier: MIT
//
// rtl_cache.cpp - the cache of RTL builds (rtl_cache.h): where, the key, the locks,
// building into a temporary directory and renaming it, loading, listing, clearing.
#include "rtl_cache.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtl_builder.h"
#include "rtl_sources.h"

namespace {

// The key: this many hexadecimal digits of the manifest's SHA-256.
const size_t kKeyDigits = 32;

// The precompiled headers' directory in the cache (precompiled_header).
const char* const kPchDir = "pch";

// The estimate of a build's time, before any build was timed on this machine:
// seconds = kBaseSeconds + kSecondsPerSize * RtlBuild::size, measured on a quiet
// 2-processor machine (docs/performance.md, "Networks of every size").
const double kBaseSeconds = 4;
const double kSecondsPerSize = 0.02;

// $XDG_CACHE_HOME/wormcast/rtl, or ~/.cache/wormcast/rtl; "" if there is no home.
std::string cache_dir()
{
    const char* x = getenv("XDG_CACHE_HOME");
    // The XDG specification: a relative path is invalid and is ignored.
    if (x && x[0] == '/') return std::string(x) + "/wormcast/rtl";
    const char* h = getenv("HOME");
    if (h && h[0] == '/') return std::string(h) + "/.cache/wormcast/rtl";
    const struct passwd* pw = getpwuid(getuid());
    if (pw && pw->pw_dir && pw->pw_dir[0] == '/') return std::string(pw->pw_dir) + "/.cache/wormcast/rtl";
    return "";
}

bool make_dirs(const std::string& path)
{
    for (size_t k = 1; k <= path.size(); ++k) {
        if (k < path.size() && path[k] != '/') continue;
        const std::string d = path.substr(0, k);
        if (mkdir(d.c_str(), 0755) && errno != EEXIST) return false;
    }
    return true;
}

std::string errno_text()
{
    return strerror(errno);
}

// A held flock; released when it goes out of scope (or the process ends).
class Lock {
public:
    Lock() = default;
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    ~Lock()
    {
        if (fd_ >= 0) close(fd_);
    }

    // Take path's lock (LOCK_SH or LOCK_EX); if another process holds it, print
    // waiting (if not empty) and wait.  false with errno.
    bool take(const std::string& path, int op, const std::string& waiting)
    {
        fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) return false;
        if (flock(fd_, op | LOCK_NB) == 0) return true;
        if (errno != EWOULDBLOCK) return false;
        if (!waiting.empty()) fprintf(stderr, "wormcast: %s\n", waiting.c_str());
        while (flock(fd_, op))
            if (errno != EINTR) return false;
        return true;
    }

private:
    int fd_ = -1;
};

bool ends_with(const std::string& s, const char* tail)
{
    const size_t n = strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The files a build reads: the embedded ones, with the RTL's replaced by the .v and .vh
// files of WORMCAST_RTL_DIR if it is set.  false with err (bad input) if that
// directory cannot be read.
bool build_sources(std::vector<RtlFile>& files, std::string& err)
{
    const char* dir = getenv("WORMCAST_RTL_DIR");
    files.clear();
    for (size_t k = 0; k < rtl_source_count; ++k) {
        const RtlSource& s = rtl_sources[k];
        if (dir && !strncmp(s.path, "rtl/", 4)) continue;
        files.push_back({s.path, std::string(reinterpret_cast<const char*>(s.data), s.size)});
    }
    if (!dir) return true;
    DIR* d = opendir(dir);
    if (!d) {
        err = std::string("WORMCAST_RTL_DIR=") + dir + ": " + errno_text();
        return false;
    }
    bool ok = true;
    while (struct dirent* e = readdir(d)) {
        const std::string n = e->d_name, path = std::string(dir) + "/" + n;
        struct stat st;
        if (!(ends_with(n, ".v") || ends_with(n, ".vh")) || stat(path.c_str(), &st) || !S_ISREG(st.st_mode))
            continue;
        FILE* f = fopen(path.c_str(), "rb");
        std::string data;
        char buf[65536];
        size_t got;
        while (f && (got = fread(buf, 1, sizeof(buf), f)) > 0) data.append(buf, got);
        if (!f || ferror(f)) {
            err = std::string("WORMCAST_RTL_DIR: cannot read ") + path + ": " + errno_text();
            ok = false;
        }
        if (f) fclose(f);
        if (!ok) break;
        files.push_back({"rtl/" + n, data});
    }
    closedir(d);
    return ok;
}

// A cJSON object read from path, or nullptr.
cJSON* read_json(const std::string& path)
{
    std::string data;
    return rtl_read_file(path, data) ? cJSON_Parse(data.c_str()) : nullptr;
}

bool is_key(const std::string& n)
{
    return n.size() == kKeyDigits && n.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The builds in the cache: (key, entry.json), in key order.
std::vector<std::pair<std::string, cJSON*>> entries(const std::string& root)
{
    std::vector<std::pair<std::string, cJSON*>> v;
    DIR* d = opendir(root.c_str());
    if (!d) return v;
    while (struct dirent* e = readdir(d)) {
        const std::string n = e->d_name;
        if (!is_key(n)) continue;
        cJSON* j = read_json(root + "/" + n + "/entry.json");
        if (j) v.emplace_back(n, j);
    }
    closedir(d);
    std::sort(v.begin(), v.end());
    return v;
}

double number(const cJSON* j, const char* name)
{
    const cJSON* x = cJSON_GetObjectItemCaseSensitive(j, name);
    return cJSON_IsNumber(x) ? x->valuedouble : -1;
}

const char* text(const cJSON* j, const char* name)
{
    const cJSON* x = cJSON_GetObjectItemCaseSensitive(j, name);
    return cJSON_IsString(x) ? x->valuestring : "";
}

double predicted_seconds(double size)
{
    return kBaseSeconds + kSecondsPerSize * size;
}

// The build's time on this machine: the prediction, scaled by the median ratio of the
// time to the prediction of the builds timed here.
double estimate(const std::string& root, const RtlBuild& b)
{
    std::vector<double> ratio;
    for (auto& e : entries(root)) {
        const double s = number(e.second, "build_seconds"), size = number(e.second, "size");
        if (s > 0 && size >= 0) ratio.push_back(s / predicted_seconds(size));
        cJSON_Delete(e.second);
    }
    double scale = 1;
    if (!ratio.empty()) {
        std::nth_element(ratio.begin(), ratio.begin() + ratio.size() / 2, ratio.end());
        scale = ratio[ratio.size() / 2];
    }
    return predicted_seconds(b.size) * scale;
}

std::string duration(double s)
{
    char b[32];
    if (s < 90)
        snprintf(b, sizeof(b), "%.0f s", s < 1 ? 1 : s);
    else if (s < 5400)
        snprintf(b, sizeof(b), "%.0f min", s / 60);
    else
        snprintf(b, sizeof(b), "%.1f h", s / 3600);
    return b;
}

std::string entry_json(const std::string& key, const RtlBuild& b, double seconds, const RtlSteps& steps)
{
    cJSON* j = cJSON_CreateObject();
    cJSON* p = cJSON_CreateObject();
    char when[32];
    const time_t now = time(nullptr);
    struct tm tm;
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    for (const auto& x : b.parameters) cJSON_AddNumberToObject(p, x.first.c_str(), double(x.second));
    cJSON_AddStringToObject(j, "key", key.c_str());
    cJSON_AddStringToObject(j, "description", b.description.c_str());
    cJSON_AddStringToObject(j, "harness", rtl_harness_name(b.harness));
    cJSON_AddStringToObject(j, "module", b.module.c_str());
    cJSON_AddItemToObject(j, "parameters", p);
    const char* dir = getenv("WORMCAST_RTL_DIR");
    cJSON_AddStringToObject(j, "rtl", dir ? dir : "the RTL inside wormcast");
    cJSON_AddStringToObject(j, "built", when);
    cJSON_AddNumberToObject(j, "build_seconds", seconds);
    cJSON* cpu = cJSON_AddObjectToObject(j, "build_cpu_seconds");
    for (const auto& st : steps)
        if (cpu) cJSON_AddNumberToObject(cpu, st.first.c_str(), st.second);
    cJSON_AddNumberToObject(j, "size", b.size);
    char* s = cJSON_Print(j);
    std::string out = s ? std::string(s) + "\n" : "";
    free(s);
    cJSON_Delete(j);
    return out;
}

// Load the plugin in dir; nullptr with err.  *absent: there is no build there.
const RtlPluginInfo* load(const std::string& dir, const RtlBuild& b, bool* absent, std::string& err)
{
    const std::string so = dir + "/plugin.so";
    struct stat st;
    *absent = stat(so.c_str(), &st) != 0;
    if (*absent) return nullptr;
    // Never unloaded: a plugin may have started the SystemC kernel, and the RTL it
    // holds is used until the process ends.
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        // Removed between the stat and the open (wormcast cache clear): build it again.
        *absent = stat(so.c_str(), &st) != 0;
        err = std::string("cannot load the cached RTL build ") + so + ": " + dlerror();
        return nullptr;
    }
    const auto* info = static_cast<const RtlPluginInfo*>(dlsym(h, WC_RTL_PLUGIN_SYMBOL));
    // The model's parameters and the RTL's must be the same, or the comparison means
    // nothing: a build for other parameters is refused, never used.
    if (!info || info->abi != WC_RTL_PLUGIN_ABI || info->sim_config_size != sizeof(struct sim_config) ||
        b.module != info->module || b.parameter_text() != info->parameters) {
        err = "the cached RTL build " + so + " is not " + b.module + " with " + b.parameter_text() +
              (info && info->abi == WC_RTL_PLUGIN_ABI ? std::string(" (it has ") + info->module + " with " +
                                                            info->parameters + ")"
                                                      : std::string(" (another version of the plugin)")) +
              "; 'wormcast cache clear' removes it";
        return nullptr;
    }
    return info;
}

void replace_all(std::string& s, const std::string& from, const std::string& to)
{
    for (size_t k = s.find(from); k != std::string::npos; k = s.find(from, k + to.size()))
        s.replace(k, from.size(), to);
}

// Remove what killed builds of key left (the caller holds key's lock).
void remove_leftovers(const std::string& root, const std::string& key)
{
    DIR* d = opendir(root.c_str());
    if (!d) return;
    const std::string prefix = ".build-" + key + "-";
    std::vector<std::string> gone;
    while (struct dirent* e = readdir(d))
        if (!strncmp(e->d_name, prefix.c_str(), prefix.size())) gone.push_back(root + "/" + e->d_name);
    closedir(d);
    for (const std::string& g : gone) rtl_remove_tree(g);
}

// The directory of the precompiled header for objects compiled with r.cxx and opt
// (rtl_builder_pch) in dir, made on first use like a build: in root/pch/<key>, key the
// hash of its manifest (the compiler, Verilator, every option), under a lock of its
// own, built in a temporary directory and renamed.  The caller holds root's lock
// (shared).  false with err (and the compiler's output on stderr).
bool precompiled_header(const std::string& root, const RtlRecipe& r, const std::vector<std::string>& opt,
                        const std::string& step, RtlSteps& steps, std::string& dir, std::string& err)
{
    const std::string manifest = rtl_pch_manifest(r, opt), key = rtl_digest(manifest).substr(0, kKeyDigits);
    const std::string base = root + "/" + kPchDir;
    dir = base + "/" + key;
    const std::string gch = dir + "/wc_pch.h.gch";
    struct stat st;
    if (stat(gch.c_str(), &st) == 0) return true;
    Lock mine;
    if (!make_dirs(base) || !mine.take(base + "/" + key + ".lock", LOCK_EX, "")) {
        err = "cannot lock " + base + "/" + key + ".lock: " + errno_text();
        return false;
    }
    if (stat(gch.c_str(), &st) == 0) return true;
    remove_leftovers(base, key);
    std::string tmp = base + "/.build-" + key + "-XXXXXX";
    if (!mkdtemp(&tmp[0])) {
        err = "cannot create a directory in " + base + ": " + errno_text();
        return false;
    }
    std::string log;
    bool ok = rtl_builder_pch(tmp, r, opt, step, steps, err, log);
    if (ok && !rtl_write_file(tmp + "/manifest.txt", manifest)) {
        err = "cannot write into " + tmp + ": " + errno_text();
        ok = false;
    }
    if (ok && rename(tmp.c_str(), dir.c_str())) {
        err = "cannot rename " + tmp + " to " + dir + ": " + errno_text();
        ok = false;
    }
    if (ok) return true;
    if (!log.empty()) {
        fputs(log.c_str(), stderr);
        if (log.back() != '\n') fputc('\n', stderr);
    }
    rtl_remove_tree(tmp);
    return false;
}

// The bytes of the precompiled headers in dir (root/pch), and how many there are.
uint64_t pch_bytes(const std::string& dir, int* count = nullptr)
{
    uint64_t n = 0;
    if (count) *count = 0;
    DIR* d = opendir(dir.c_str());
    if (!d) return 0;
    while (struct dirent* e = readdir(d)) {
        struct stat st;
        if (is_key(e->d_name) && stat((dir + "/" + e->d_name + "/wc_pch.h.gch").c_str(), &st) == 0) {
            n += uint64_t(st.st_size);
            if (count) ++*count;
        }
    }
    closedir(d);
    return n;
}

// Build key into the cache; the caller holds key's lock.  false with err (and the
// tool's output already on stderr).
bool build(const std::string& root, const std::string& key, const RtlBuild& b, const RtlRecipe& r,
           const std::string& manifest, const volatile std::sig_atomic_t* stop, std::string& err)
{
    remove_leftovers(root, key);
    if (!rtl_builder_tools_match(err)) return false;
    fprintf(stderr, "wormcast: building the RTL of %s (Verilator and the C++ compiler, about %s, once: "
            "it is kept in %s)\n", b.description.c_str(), duration(estimate(root, b)).c_str(), root.c_str());
    fflush(stderr);
    const auto t0 = std::chrono::steady_clock::now();
    RtlSteps steps;
    std::string pch_fast, pch_slow;
    if (!precompiled_header(root, r, r.cxx_fast, "pch_fast", steps, pch_fast, err) ||
        !precompiled_header(root, r, r.cxx_slow, "pch_slow", steps, pch_slow, err)) {
        err = "the precompiled header: " + err;
        return false;
    }
    std::string tmp = root + "/.build-" + key + "-XXXXXX";
    if (!mkdtemp(&tmp[0])) {
        err = "cannot create a directory in " + root + ": " + errno_text();
        return false;
    }
    std::string log;
    bool ok = rtl_builder_run(tmp, b, r, pch_fast, pch_slow, stop, steps, err, log);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (ok && (!rtl_write_file(tmp + "/manifest.txt", manifest) ||
               !rtl_write_file(tmp + "/entry.json", entry_json(key, b, seconds, steps)))) {
        err = "cannot write into " + tmp + ": " + errno_text();
        ok = false;
    }
    if (ok && rename(tmp.c_str(), (root + "/" + key).c_str())) {
        err = "cannot rename " + tmp + " to " + root + "/" + key + ": " + errno_text();
        ok = false;
    }
    if (ok) {
        // Correct without it, only slower: said, not hidden (the precompiled header was
        // changed by hand, or the compiler changed under the same version line).
        if (!log.empty())
            fprintf(stderr, "wormcast: the compiler did not use the precompiled header in %s ('wormcast "
                    "cache clear' removes it):\n%s", root.c_str(), log.c_str());
        return true;
    }
    // The tool's own words are the report; the one line that names the failure is the
    // caller's.  The sources it names are shown where they came from, not in the
    // directory that is about to go.
    const char* dir = getenv("WORMCAST_RTL_DIR");
    replace_all(log, tmp + "/src/rtl/", dir ? std::string(dir) + "/" : "rtl/");
    replace_all(log, tmp + "/src/", "");
    if (!log.empty()) {
        fputs(log.c_str(), stderr);
        if (log.back() != '\n') fputc('\n', stderr);
    }
    rtl_remove_tree(tmp);
    return false;
}

// The code coverage variant if WORMCAST_RTL_COVERAGE_DIR names a directory the plugin
// can write into (checked now, not when the run is over).  false with err (bad input).
bool coverage_variant(RtlBuild& b, std::string& err)
{
    const char* dir = getenv("WORMCAST_RTL_COVERAGE_DIR");
    if (!dir || !*dir) return true;
    struct stat st;
    if (b.harness == RtlHarness::SystemC) {
        err = "WORMCAST_RTL_COVERAGE_DIR: code coverage is measured with --engine rtl and cosim, "
              "not with --engine systemc";
        return false;
    }
    const std::string what = std::string("WORMCAST_RTL_COVERAGE_DIR=") + dir + ": ";
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        err = what + "not a directory";
        return false;
    }
    if (stat(dir, &st) || access(dir, W_OK | X_OK)) {
        err = what + errno_text();
        return false;
    }
    b.coverage = true;
    b.description += ", with code coverage";
    return true;
}

}  // namespace

const RtlPluginInfo* rtl_cache_plugin(const RtlBuild& run_build, const volatile std::sig_atomic_t* stop,
                                      bool* bad_input, std::string& err)
{
    // The plugins this process loaded, by key: a sweep asks again for every run.
    static std::map<std::string, const RtlPluginInfo*> loaded;
    std::vector<RtlFile> files;
    RtlBuild b = run_build;
    *bad_input = false;
    if (!build_sources(files, err) || !coverage_variant(b, err)) {
        *bad_input = true;
        return nullptr;
    }
    const RtlRecipe r = rtl_recipe(b, std::move(files), rtl_split_words(getenv("WORMCAST_VERILATOR_FLAGS")));
    const std::string manifest = rtl_recipe_manifest(b, r);
    const std::string key = rtl_digest(manifest).substr(0, kKeyDigits);
    auto it = loaded.find(key);
    if (it != loaded.end()) return it->second;

    const std::string root = cache_dir();
    if (root.empty()) {
        err = "no cache directory for the RTL builds: set XDG_CACHE_HOME or HOME";
        return nullptr;
    }
    bool absent;
    const RtlPluginInfo* info = load(root + "/" + key, b, &absent, err);
    if (!info && absent) {
        Lock all, mine;
        const std::string what = "the RTL of " + b.description;
        if (!make_dirs(root) || !all.take(root + "/.lock", LOCK_SH, "waiting for 'wormcast cache clear'") ||
            !mine.take(root + "/" + key + ".lock", LOCK_EX,
                       "waiting for another wormcast that builds " + what + " (" + root + "/" + key + ")")) {
            err = "cannot lock the RTL cache " + root + ": " + errno_text();
            return nullptr;
        }
        // The other process may have built it while this one waited.
        info = load(root + "/" + key, b, &absent, err);
        if (!info && absent) {
            if (!build(root, key, b, r, manifest, stop, err)) {
                err = "cannot build " + what + ": " + err;
                return nullptr;
            }
            info = load(root + "/" + key, b, &absent, err);
        }
    }
    if (info) loaded[key] = info;
    return info;
}

extern "C" int rtl_cache_list_json(cJSON* obj)
{
    const std::string root = cache_dir();
    cJSON* c = cJSON_AddObjectToObject(obj, "rtl_cache");
    cJSON* a = c ? cJSON_AddArrayToObject(c, "builds") : nullptr;
    if (!a || !cJSON_AddStringToObject(c, "directory", root.c_str())) return -1;
    // The headers every build shares (a few per compiler option set, 70-110 MB each):
    // they are most of the cache's size, so a listing that left them out would hide it.
    int headers = 0;
    const uint64_t header_bytes = pch_bytes(root + "/" + kPchDir, &headers);
    cJSON* h = cJSON_AddObjectToObject(c, "precompiled_headers");
    if (!h || !cJSON_AddNumberToObject(h, "count", headers) ||
        !cJSON_AddNumberToObject(h, "bytes", double(header_bytes)))
        return -1;
    int rc = 0;
    for (auto& e : entries(root)) {
        struct stat st;
        if (stat((root + "/" + e.first + "/plugin.so").c_str(), &st) == 0)
            cJSON_AddNumberToObject(e.second, "bytes", double(st.st_size));
        if (!rc && !cJSON_AddItemToArray(a, e.second)) {
            rc = -1;
            cJSON_Delete(e.second);
        } else if (rc) {
            cJSON_Delete(e.second);
        }
    }
    return rc;
}

extern "C" void rtl_cache_list_print(FILE* out)
{
    const std::string root = cache_dir();
    auto v = entries(root);
    fprintf(out, "RTL builds in %s: %zu%s\n", root.c_str(), v.size(),
            v.empty() ? " (a configuration is built on its first run with an RTL engine)" : "");
    for (auto& e : v) {
        fprintf(out, "  %s  (%s, built in %.0f s)\n", text(e.second, "description"), e.first.substr(0, 8).c_str(),
                number(e.second, "build_seconds"));
        cJSON_Delete(e.second);
    }
    int headers = 0;
    const uint64_t header_bytes = pch_bytes(root + "/" + kPchDir, &headers);
    if (headers)
        fprintf(out, "precompiled headers shared by the builds: %d, %.0f MB\n", headers, header_bytes / 1e6);
}

extern "C" int rtl_cache_clear(int* removed, uint64_t* bytes, char* dir, size_t dirlen, char* err,
                               size_t errlen)
{
    const std::string root = cache_dir();
    *removed = 0;
    *bytes = 0;
    snprintf(dir, dirlen, "%s", root.c_str());
    if (root.empty()) {
        snprintf(err, errlen, "no cache directory for the RTL builds: set XDG_CACHE_HOME or HOME");
        return -1;
    }
    struct stat st;
    if (stat(root.c_str(), &st) && errno == ENOENT) return 0;
    Lock all;
    if (!all.take(root + "/.lock", LOCK_EX, "waiting for the RTL builds under way in " + root)) {
        snprintf(err, errlen, "cannot lock the RTL cache %s: %s", root.c_str(), strerror(errno));
        return -1;
    }
    DIR* d = opendir(root.c_str());
    if (!d) {
        snprintf(err, errlen, "cannot read the RTL cache %s: %s", root.c_str(), strerror(errno));
        return -1;
    }
    std::vector<std::string> names;
    while (struct dirent* e = readdir(d)) names.push_back(e->d_name);
    closedir(d);
    int rc = 0;
    for (const std::string& n : names) {
        const std::string path = root + "/" + n;
        // Builds, the leftovers of killed builds and the builds' lock files; .lock
        // itself stays (this process holds it).
        const bool entry = is_key(n), leftover = n.compare(0, 7, ".build-") == 0,
                   lockfile = ends_with(n, ".lock") && is_key(n.substr(0, n.size() - 5)), pch = n == kPchDir;
        if (!entry && !leftover && !lockfile && !pch) continue;
        if (entry && stat((path + "/plugin.so").c_str(), &st) == 0) *bytes += uint64_t(st.st_size);
        if (pch) *bytes += pch_bytes(path);
        const bool gone = lockfile ? unlink(path.c_str()) == 0 : rtl_remove_tree(path);
        if (!gone && !rc) {
            snprintf(err, errlen, "cannot remove %s: %s", path.c_str(), strerror(errno));
            rc = -1;
        }
        *removed += entry && gone;
    }
    return rc;
}

// Implementation of fixture_set.h.
#include "fixture_set.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "crypto/sha256.h"
#include "file_bytes.h"
#include "primitives/hex.h"

#ifndef IBD_DEFAULT_FIXTURES
#error "IBD_DEFAULT_FIXTURES must be defined by blocks-fixtures/CMakeLists.txt"
#endif
#ifndef IBD_REPO_MANIFEST
#error "IBD_REPO_MANIFEST must be defined by blocks-fixtures/CMakeLists.txt"
#endif

namespace ibd::fixtures {

namespace {

using nlohmann::json;

/** path.resolve: absolute, normalized, no trailing slash. */
std::string Resolve(const std::string& p) {
    std::string out = std::filesystem::absolute(p).lexically_normal().string();
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
}

bool IsLowerHex64(const json& v) {
    if (!v.is_string()) return false;
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() != 64) return false;
    for (char c : s) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
}

/** Number.isInteger(v) && v >= 0 && v <= max, with the value in `out`. */
bool NonNegativeInteger(const json& v, int64_t max, int64_t& out) {
    if (v.is_number_unsigned() || v.is_number_integer()) {
        if (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0) return false;
        if (v.get<uint64_t>() > static_cast<uint64_t>(max)) return false;
        out = v.get<int64_t>();
        return true;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!(d >= 0) || d != std::floor(d) || d > static_cast<double>(max)) return false;
        out = static_cast<int64_t>(d);
        return true;
    }
    return false;
}

/** manifest-entry.mjs manifestEntryProblem: what is wrong with entry `index`, or "" when it is
 *  sound. Same checks and texts. */
std::string EntryProblem(const json& entry, size_t index) {
    const std::string where = "manifest entry " + std::to_string(index);
    if (!entry.is_object()) return where + " is not an object";
    int64_t height = 0;
    const auto h = entry.find("height");
    if (h == entry.end() || !NonNegativeInteger(*h, std::numeric_limits<int32_t>::max(), height)) {
        return where + ": height " + (h == entry.end() ? std::string("undefined") : h->dump()) +
               " is not a block height";
    }
    const std::string at = where + " (height " + std::to_string(height) + ")";
    for (const char* field : {"hash", "block_raw_sha256", "spent_outputs_sha256"}) {
        const auto f = entry.find(field);
        if (f == entry.end() || !IsLowerHex64(*f)) return at + ": " + field + " is not 64 lowercase hex digits";
    }
    int64_t inputs = 0;
    const auto n = entry.find("inputs");
    if (n == entry.end() || !NonNegativeInteger(*n, std::numeric_limits<int64_t>::max(), inputs)) {
        return at + ": inputs is not a count";
    }
    const auto d = entry.find("dir");
    if (d == entry.end() || !d->is_string() || d->get_ref<const std::string&>().empty()) return at + ": dir is not a path";
    // An absolute path (/etc, \\server, C:) or a '..' segment could lead out of the fixture set.
    const std::string& dir = d->get_ref<const std::string&>();
    bool outside = dir[0] == '/' || dir[0] == '\\' ||
                   (dir.size() >= 2 && dir[1] == ':' && std::isalpha(static_cast<unsigned char>(dir[0])));
    for (size_t start = 0; !outside && start <= dir.size();) {
        const size_t end = dir.find_first_of("/\\", start);
        const size_t stop = end == std::string::npos ? dir.size() : end;
        outside = dir.compare(start, stop - start, "..") == 0 && stop - start == 2;
        start = stop + 1;
    }
    if (outside) return at + ": dir " + dir + " leads outside the fixtures directory";
    // A folder named by a height must hold that height (manifest-entry.mjs says why).
    const size_t end = dir.find_last_not_of("/\\");
    if (end != std::string::npos) {
        const size_t begin = dir.find_last_of("/\\", end);
        const std::string last = dir.substr(begin == std::string::npos ? 0 : begin + 1,
                                            end - (begin == std::string::npos ? 0 : begin + 1) + 1);
        const bool digits = !last.empty() && last.size() <= 10 &&
                            last.find_first_not_of("0123456789") == std::string::npos;
        if (digits && std::stoll(last) != height) {
            return at + ": dir " + dir + " names height " + std::to_string(std::stoll(last)) + ", not the entry's " +
                   std::to_string(height);
        }
    }
    return "";
}

/** manifest-entry.mjs chainEntryProblem: what is wrong with the manifest's chain entry, or "". */
std::string ChainProblem(const json& chain) {
    const std::string where = "manifest chain";
    if (!chain.is_object()) return where + " is not an object";
    const auto f = chain.find("file");
    if (f == chain.end() || !f->is_string() || f->get_ref<const std::string&>().empty()) return where + ": file is not a path";
    const std::string& file = f->get_ref<const std::string&>();
    bool outside = file[0] == '/' || file[0] == '\\' ||
                   (file.size() >= 2 && file[1] == ':' && std::isalpha(static_cast<unsigned char>(file[0])));
    for (size_t start = 0; !outside && start <= file.size();) {
        const size_t end = file.find_first_of("/\\", start);
        const size_t stop = end == std::string::npos ? file.size() : end;
        outside = file.compare(start, stop - start, "..") == 0 && stop - start == 2;
        start = stop + 1;
    }
    if (outside) return where + ": file " + file + " leads outside the fixtures directory";
    for (const char* field : {"sha256", "prev_hash", "last_hash"}) {
        const auto v = chain.find(field);
        if (v == chain.end() || !IsLowerHex64(*v)) return where + ": " + field + " is not 64 lowercase hex digits";
    }
    int64_t n = 0;
    const auto h = chain.find("first_height");
    if (h == chain.end() || !NonNegativeInteger(*h, std::numeric_limits<int32_t>::max(), n) || n < 1) {
        return where + ": first_height is not a block height above 0";
    }
    const auto b = chain.find("blocks");
    if (b == chain.end() || !NonNegativeInteger(*b, std::numeric_limits<int64_t>::max(), n) || n < 1) {
        return where + ": blocks is not a count above 0";
    }
    return "";
}

/** The manifest file as JSON; throws naming it when it cannot be read or parsed. */
json ReadManifest(const std::string& path) {
    try {
        const std::vector<uint8_t> bytes = ReadFileBytes(path);
        return json::parse(bytes.begin(), bytes.end());
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot read fixture manifest " + path + ": " + e.what());
    }
}

/** The manifest's `blocks` array, checked as LoadFixtureFiles documents. */
json ReadManifestBlocks(const std::string& path) {
    json manifest;
    try {
        const std::vector<uint8_t> bytes = ReadFileBytes(path);
        manifest = json::parse(bytes.begin(), bytes.end());
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot read fixture manifest " + path + ": " + e.what());
    }
    const auto blocks = manifest.is_object() ? manifest.find("blocks") : manifest.end();
    if (blocks == manifest.end() || !blocks->is_array()) {
        throw std::runtime_error("fixture manifest " + path + " has no \"blocks\" array");
    }
    if (blocks->empty()) throw std::runtime_error("fixture manifest " + path + " lists no blocks");
    return *blocks;
}

/** Reads `file` whole and checks its SHA-256 against `expected` (lowercase hex). Throws an
 *  exception whose what() names the file. */
std::vector<uint8_t> ReadChecked(const std::string& file, const std::string& expected) {
    std::vector<uint8_t> bytes = ReadFileBytes(file);
    const std::string actual = HexEncode(Sha256Hash(bytes.data(), bytes.size()));
    if (actual != expected) {
        throw std::runtime_error(file + ": sha256 " + actual + " does not match the manifest's " + expected + " (" +
                                 std::to_string(bytes.size()) + " bytes; file changed or truncated)");
    }
    return bytes;
}

/** Loads one sound manifest entry's files; sets `b.error` instead of throwing. */
void LoadOne(FixtureFiles& b, const json& entry) {
    std::error_code ec;
    if (!std::filesystem::is_directory(b.dir, ec)) {
        b.error = "fixture folder " + b.dir + " is missing";
        return;
    }
    try {
        b.block_raw = ReadChecked(b.dir + "/block.raw", entry["block_raw_sha256"].get<std::string>());
        const std::vector<uint8_t> json_bytes =
            ReadChecked(b.dir + "/spent_outputs.json", entry["spent_outputs_sha256"].get<std::string>());
        b.spent_outputs_json.assign(json_bytes.begin(), json_bytes.end());
    } catch (const std::exception& e) {
        b.block_raw.clear();
        b.error = e.what();
    }
}

}  // namespace

std::string FixturesDir(const std::string& override_dir) {
    if (!override_dir.empty()) return Resolve(override_dir);
    const char* env = std::getenv("IBD_FIXTURES");
    if (env != nullptr && env[0] != '\0') return Resolve(env);
    return Resolve(IBD_DEFAULT_FIXTURES);
}

std::string ManifestPath(const std::string& dir) {
    const std::string own = dir + "/manifest.json";
    std::error_code ec;
    if (!std::filesystem::exists(dir, ec)) {
        throw std::runtime_error("fixtures directory " + dir + " does not exist (use --fixtures DIR or set IBD_FIXTURES)");
    }
    if (std::filesystem::exists(own, ec)) return own;
    const auto real = [](const std::string& p) {
        std::error_code e;
        const std::filesystem::path r = std::filesystem::canonical(p, e);
        return e ? std::filesystem::absolute(p, e).lexically_normal().string() : r.string();
    };
    const std::string default_dir = FixturesDir();
    if (real(dir) == real(default_dir)) return IBD_REPO_MANIFEST;
    // A folder laid out as the shared fixture set (index.json beside mainnet/; loader.mjs).
    if (std::filesystem::exists(dir + "/index.json", ec) && std::filesystem::is_directory(dir + "/mainnet", ec)) {
        return IBD_REPO_MANIFEST;
    }
    throw std::runtime_error("fixtures folder " + dir + " has no manifest.json, and is not laid out as the shared "
                             "fixture set (index.json beside mainnet/), which the repo's blocks-fixtures/manifest.json "
                             "describes; make one with: node blocks-fixtures/make-manifest.mjs --fixtures " + dir +
                             " --out " + own);
}

std::vector<FixtureFiles> LoadFixtureFiles(const std::string& dir, const std::vector<int32_t>& heights) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        throw std::runtime_error("fixtures folder " + dir +
                                 " not found: set IBD_FIXTURES=DIR or place the fixtures at "
                                 "../shared/blocks-fixtures beside the repository");
    }
    if (!std::filesystem::exists(dir + "/manifest.json", ec) && !std::filesystem::exists(dir + "/mainnet", ec)) {
        throw std::runtime_error("no fixture blocks found in " + dir + ": expected " + dir +
                                 "/mainnet/<height>/block.raw and spent_outputs.json");
    }
    const std::string manifest = ManifestPath(dir);  // throws for a folder without one (not the default)
    const json blocks = ReadManifestBlocks(manifest);

    // Sound entries by height (in manifest order); a malformed or repeated entry becomes that
    // entry's error only.
    std::map<int32_t, size_t> by_height;
    std::vector<int32_t> order;
    std::vector<FixtureFiles> out;
    for (size_t i = 0; i < blocks.size(); ++i) {
        const json& e = blocks[i];
        std::string problem = EntryProblem(e, i);
        const int32_t height = problem.empty() ? e["height"].get<int32_t>() : -1;
        if (problem.empty() && by_height.count(height) != 0) {
            problem = "manifest entry " + std::to_string(i) + " repeats height " + std::to_string(height);
        }
        if (!problem.empty()) {
            if (!heights.empty()) continue;
            FixtureFiles bad;
            int64_t h = -1;
            const auto field = e.is_object() ? e.find("height") : e.end();
            if (field != e.end() && NonNegativeInteger(*field, std::numeric_limits<int32_t>::max(), h)) {
                bad.height = static_cast<int32_t>(h);
            }
            bad.error = manifest + ": " + problem;
            out.push_back(std::move(bad));
            continue;
        }
        by_height[height] = i;
        order.push_back(height);
    }
    for (const int32_t height : heights.empty() ? order : heights) {
        FixtureFiles b;
        b.height = height;
        const auto found = by_height.find(height);
        if (found == by_height.end()) {
            b.dir = dir + "/mainnet/" + std::to_string(height);
            b.error = "height " + std::to_string(height) + " is not listed in the fixture manifest " + manifest;
            out.push_back(std::move(b));
            continue;
        }
        const json& e = blocks[found->second];
        b.hash = e["hash"].get<std::string>();
        b.dir = dir + "/" + e["dir"].get<std::string>();
        b.inputs = e["inputs"].is_number_float() ? static_cast<int64_t>(e["inputs"].get<double>())
                                                 : e["inputs"].get<int64_t>();
        LoadOne(b, e);
        out.push_back(std::move(b));
    }
    return out;
}

FixtureFiles LoadFixtureBlockFiles(const std::string& dir, int32_t height) {
    std::vector<FixtureFiles> files = LoadFixtureFiles(dir, {height});
    if (!files.at(0).error.empty()) throw std::runtime_error(files[0].error);
    return std::move(files[0]);
}

ChainFile LoadChainFile(const std::string& dir) {
    const std::string manifest_path = ManifestPath(dir);
    const json manifest = ReadManifest(manifest_path);
    const auto chain = manifest.is_object() ? manifest.find("chain") : manifest.end();
    if (chain == manifest.end()) throw std::runtime_error("fixture manifest " + manifest_path + " lists no chain");
    const std::string problem = ChainProblem(*chain);
    if (!problem.empty()) throw std::runtime_error(manifest_path + ": " + problem);
    ChainFile c;
    c.path = dir + "/" + (*chain)["file"].get<std::string>();
    int64_t n = 0;
    NonNegativeInteger((*chain)["first_height"], std::numeric_limits<int32_t>::max(), n);
    c.first_height = static_cast<int32_t>(n);
    NonNegativeInteger((*chain)["blocks"], std::numeric_limits<int64_t>::max(), c.blocks);
    c.prev_hash = (*chain)["prev_hash"].get<std::string>();
    c.last_hash = (*chain)["last_hash"].get<std::string>();
    try {
        c.bytes = ReadChecked(c.path, (*chain)["sha256"].get<std::string>());
    } catch (const std::exception& e) {
        throw std::runtime_error(e.what());
    }
    return c;
}

}  // namespace ibd::fixtures

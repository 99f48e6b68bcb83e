// Implementation of fixture_set.h.
#include "fixture_set.h"

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "file_bytes.h"
#include "validation/error.h"

#ifndef IBD_DEFAULT_FIXTURES
#error "IBD_DEFAULT_FIXTURES must be defined by bench/native/CMakeLists.txt"
#endif
#ifndef IBD_REPO_MANIFEST
#error "IBD_REPO_MANIFEST must be defined by bench/native/CMakeLists.txt"
#endif

namespace ibd::bench {

std::string FixturesDir() {
    const char* env = std::getenv("IBD_FIXTURES");
    std::string dir = (env != nullptr && env[0] != '\0') ? env : IBD_DEFAULT_FIXTURES;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    return dir;
}

namespace {

/** The manifest's `blocks` array, checked as LoadFixtureBlocks documents. */
nlohmann::json ReadManifestBlocks(const std::string& dir) {
    const std::string own = dir + "/manifest.json";
    const std::string path = std::filesystem::exists(own) ? own : IBD_REPO_MANIFEST;
    nlohmann::json manifest;
    try {
        const std::vector<uint8_t> bytes = ReadFileBytes(path);
        manifest = nlohmann::json::parse(bytes.begin(), bytes.end());
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot read fixture manifest " + path + ": " + e.what());
    }
    const auto blocks = manifest.find("blocks");
    if (blocks == manifest.end() || !blocks->is_array() || blocks->empty()) {
        throw std::runtime_error("fixture manifest " + path + " has no non-empty \"blocks\" array");
    }
    for (size_t i = 0; i < blocks->size(); ++i) {
        const nlohmann::json& e = (*blocks)[i];
        if (!e.is_object() || !e.contains("height") || !e["height"].is_number_integer() || !e.contains("hash") ||
            !e["hash"].is_string() || !e.contains("dir") || !e["dir"].is_string()) {
            throw std::runtime_error("fixture manifest " + path + ": entry " + std::to_string(i) +
                                     " needs an integer height and string hash and dir");
        }
    }
    return *blocks;
}

/** Reads, parses and validates one block; sets `b.error` instead of throwing. */
void LoadBlock(FixtureBlock& b) {
    try {
        b.raw = ReadFileBytes(b.dir + "/block.raw");
        const std::string json_path = b.dir + "/spent_outputs.json";
        const std::vector<uint8_t> json = ReadFileBytes(json_path);
        try {
            b.spent = ParseSpentOutputsJson(std::string_view(reinterpret_cast<const char*>(json.data()), json.size()));
        } catch (const Error& e) {
            Location at;
            at.file = json_path;
            throw e.with_context(at);
        }
        b.validation = ValidateBlock(b.raw.data(), b.raw.size(), b.spent, b.hash, b.height);
        if (!b.validation.valid) b.error = "block verdict invalid: " + b.validation.error;
    } catch (const std::exception& e) {
        b.error = e.what();
    }
}

}  // namespace

std::vector<FixtureBlock> LoadFixtureBlocks(const std::string& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        throw std::runtime_error("fixtures folder " + dir +
                                 " not found: set IBD_FIXTURES=DIR or place the fixtures at "
                                 "../shared/blocks-fixtures beside the repository");
    }
    std::vector<FixtureBlock> out;
    for (const nlohmann::json& e : ReadManifestBlocks(dir)) {
        FixtureBlock b;
        b.height = e["height"].get<int32_t>();
        b.hash = e["hash"].get<std::string>();
        b.dir = dir + "/" + e["dir"].get<std::string>();
        LoadBlock(b);
        out.push_back(std::move(b));
    }
    return out;
}

}  // namespace ibd::bench

// Implementation of test_support.h.
#include "support/test_support.h"

#include <utility>

#include <gtest/gtest.h>

#include "file_bytes.h"
#include "fixture_set.h"
#include "primitives/block_file.h"

namespace ibd::test {

std::string FixturesDir() { return fixtures::FixturesDir(); }

std::string FixturePath(const std::string& relative) { return FixturesDir() + "/" + relative; }

FixtureBlock LoadFixtureBlock(int32_t height) {
    fixtures::FixtureFiles files = fixtures::LoadFixtureBlockFiles(FixturesDir(), height);
    FixtureBlock b;
    b.raw = std::move(files.block_raw);
    b.spent = ParseSpentOutputsJson(files.spent_outputs_json);
    b.hash = std::move(files.hash);
    b.height = height;
    return b;
}

FixtureChain LoadFixtureChain() {
    fixtures::ChainFile c = fixtures::LoadChainFile(FixturesDir());
    FixtureChain out;
    out.first_height = c.first_height;
    out.last_hash = c.last_hash;
    out.file = std::move(c.bytes);
    const BlockFile file = ReadBlockFile(out.file.data(), out.file.size());
    if (file.error) throw std::runtime_error(c.path + ": " + file.error->what());
    for (const BlockFileFrame& f : file.frames) {
        out.blocks.emplace_back(out.file.begin() + static_cast<std::ptrdiff_t>(f.offset),
                                out.file.begin() + static_cast<std::ptrdiff_t>(f.offset + f.size));
    }
    return out;
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) { return fixtures::ReadFileBytes(path); }

std::string ReadFile(const std::string& path) {
    const std::vector<uint8_t> bytes = ReadFileBytes(path);
    return std::string(bytes.begin(), bytes.end());
}

nlohmann::json ReadJsonFile(const std::string& path) { return nlohmann::json::parse(ReadFile(path)); }

ChainContext MutatedBlockContext(ChainContext context) {
    context.skip_proof_of_work = true;
    return context;
}

Error ValidationError(const std::vector<uint8_t>& raw, const std::vector<SpentOutputEntry>& spent,
                      const std::string& hash, int32_t height) {
    try {
        ValidateBlock(raw.data(), raw.size(), spent, hash, height, MutatedBlockContext());
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error";
    return Error("none", Location{});
}

}  // namespace ibd::test

// Implementation of validated_blocks.h.
#include "validated_blocks.h"

#include <exception>
#include <string_view>

#include "fixture_set.h"
#include "validation/error.h"

namespace ibd::bench {

namespace {

/** Parses and validates one loaded block; sets `b.error` instead of throwing. */
void Validate(FixtureBlock& b, const std::string& spent_outputs_json) {
    try {
        try {
            b.spent = ParseSpentOutputsJson(spent_outputs_json);
        } catch (const Error& e) {
            Location at;
            at.file = b.dir + "/spent_outputs.json";
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
    std::vector<FixtureBlock> out;
    for (fixtures::FixtureFiles& files : fixtures::LoadFixtureFiles(dir)) {
        FixtureBlock b;
        b.height = files.height;
        b.hash = std::move(files.hash);
        b.dir = std::move(files.dir);
        b.raw = std::move(files.block_raw);
        b.error = std::move(files.error);
        if (b.error.empty()) Validate(b, files.spent_outputs_json);
        out.push_back(std::move(b));
    }
    return out;
}

}  // namespace ibd::bench

// Implementation of test_support.h.
#include "support/test_support.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <gtest/gtest.h>

#include "fixture_set.h"

namespace ibd::test {

std::string FixturesDir() { return bench::FixturesDir(); }

std::string FixturePath(const std::string& relative) { return FixturesDir() + "/" + relative; }

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + path);
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) throw std::runtime_error("cannot read " + path);
    return data;
}

std::string ReadFile(const std::string& path) {
    const std::vector<uint8_t> bytes = ReadFileBytes(path);
    return std::string(bytes.begin(), bytes.end());
}

nlohmann::json ReadJsonFile(const std::string& path) { return nlohmann::json::parse(ReadFile(path)); }

Error ValidationError(const std::vector<uint8_t>& raw, const std::vector<SpentOutputEntry>& spent,
                      const std::string& hash, int32_t height) {
    try {
        ValidateBlock(raw.data(), raw.size(), spent, hash, height);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error";
    return Error("none", Location{});
}

}  // namespace ibd::test

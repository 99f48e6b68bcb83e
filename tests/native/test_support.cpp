// Implementation of test_support.h.
#include "test_support.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <gtest/gtest.h>

#ifndef IBD_DEFAULT_FIXTURES
#error "IBD_DEFAULT_FIXTURES must be defined by tests/native/CMakeLists.txt"
#endif

namespace ibd::test {

std::string FixturesDir() {
    const char* env = std::getenv("IBD_FIXTURES");
    std::string dir = (env != nullptr && env[0] != '\0') ? env : IBD_DEFAULT_FIXTURES;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    return dir;
}

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

// Implementation of error.h: the one error type of the engine and its location text.
#include "util/error.h"

#include <utility>

namespace ibd {

std::string Location::to_string() const {
    std::string out;
    auto add = [&out](const std::string& part) {
        if (!out.empty()) out += ", ";
        out += part;
    };
    if (!file.empty()) add("file " + file);
    if (!block_hash.empty()) add("block " + block_hash);
    if (tx_index >= 0) add("tx " + std::to_string(tx_index));
    if (input_index >= 0) add("input " + std::to_string(input_index));
    if (output_index >= 0) add("output " + std::to_string(output_index));
    if (byte_offset >= 0) add("byte " + std::to_string(byte_offset));
    return out;
}

namespace {

std::string FormatWhat(const std::string& reason, const Location& where) {
    const std::string loc = where.to_string();
    if (loc.empty()) return reason;
    return reason + " (at " + loc + ")";
}

}  // namespace

Error::Error(std::string reason, Location where)
    : std::runtime_error(FormatWhat(reason, where)), reason_(std::move(reason)), where_(std::move(where)) {}

std::string RuleFailure::message() const { return detail.empty() ? reject_reason : reject_reason + ": " + detail; }

Error::Error(const RuleFailure& failure) : Error(failure.message(), failure.where) {
    reject_reason_ = failure.reject_reason;
    stage_ = failure.stage;
}

Error Error::with_stage(const std::string& stage) const {
    Error e = *this;
    e.stage_ = stage;
    e.reject_reason_ = reason_.substr(0, reason_.find(':'));
    return e;
}

Error Error::with_context(const Location& outer) const {
    Location merged = where_;
    if (merged.file.empty()) merged.file = outer.file;
    if (merged.block_hash.empty()) merged.block_hash = outer.block_hash;
    if (merged.tx_index < 0) merged.tx_index = outer.tx_index;
    if (merged.input_index < 0) merged.input_index = outer.input_index;
    if (merged.output_index < 0) merged.output_index = outer.output_index;
    if (merged.byte_offset < 0) merged.byte_offset = outer.byte_offset;
    Error e(reason_, merged);
    e.reject_reason_ = reject_reason_;
    e.stage_ = stage_;
    return e;
}

}  // namespace ibd

// ParseSpentOutputsJson (spent_outputs.h): the fixtures' normalized spent_outputs.json, read with
// nlohmann::json. Format (../shared/blocks-fixtures/README.md, "spent_outputs.json"):
//   { ..., "spent_outputs": [ {"txid": "<64 hex, display order>", "vout": <uint32>,
//                              "value": <satoshis>, "script_pubkey": "<hex>"}, ... ] }
#include "validation/spent_outputs.h"

#include <cctype>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "primitives/hex.h"
#include "primitives/transaction.h"
#include "util/error.h"

namespace ibd {

namespace {

using nlohmann::json;

/** Entry errors are named in the reason ("spent_outputs[k]..."); the location stays empty:
 *  entry k is not input k of any transaction (spent_outputs.h). */
Location EntryLocation(size_t) { return Location{}; }

[[noreturn]] void FailField(size_t index, const char* field, const std::string& problem) {
    throw Error("spent_outputs[" + std::to_string(index) + "]." + field + ": " + problem, EntryLocation(index));
}

const json& Field(const json& entry, size_t index, const char* field) {
    const auto it = entry.find(field);
    if (it == entry.end()) FailField(index, field, "missing");
    return *it;
}

/** An integer field that must be >= 0 (floats such as 1.5 or 1e3 are rejected). */
uint64_t NonNegativeInteger(const json& v, size_t index, const char* field) {
    if (!v.is_number_integer()) FailField(index, field, "not an integer");
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    const int64_t signed_value = v.get<int64_t>();
    if (signed_value < 0) FailField(index, field, "negative");
    return static_cast<uint64_t>(signed_value);
}

SpentOutputEntry ParseEntry(const json& entry, size_t index) {
    if (!entry.is_object()) {
        throw Error("spent_outputs[" + std::to_string(index) + "]: not an object", EntryLocation(index));
    }
    SpentOutputEntry out;

    const json& txid = Field(entry, index, "txid");
    if (!txid.is_string()) FailField(index, "txid", "not a string");
    out.txid_hex = txid.get<std::string>();
    Hash32 ignored;
    if (!TryParseHashDisplayHex(out.txid_hex, ignored)) FailField(index, "txid", "not 64 hex digits");
    for (char& c : out.txid_hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));

    const json& vout = Field(entry, index, "vout");
    const uint64_t n = NonNegativeInteger(vout, index, "vout");
    if (n > 0xffffffffULL) FailField(index, "vout", "above 4294967295");
    out.vout = static_cast<uint32_t>(n);

    // Any 64-bit amount is taken: whether it is in range (0 to 21,000,000 BTC) is a consensus
    // rule, Consensus::CheckTxInputs' bad-txns-inputvalues-outofrange, judged with the block.
    const json& value = Field(entry, index, "value");
    if (!value.is_number_integer()) FailField(index, "value", "not an integer");
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
        FailField(index, "value", "above 2^63-1 satoshis (not a 64-bit amount)");
    }
    out.out.value = value.get<int64_t>();

    const json& script = Field(entry, index, "script_pubkey");
    if (!script.is_string()) FailField(index, "script_pubkey", "not a string");
    if (!TryHexDecode(script.get_ref<const std::string&>(), out.out.script_pubkey)) {
        FailField(index, "script_pubkey", "not hex");
    }
    return out;
}

}  // namespace

std::vector<SpentOutputEntry> ParseSpentOutputsJson(std::string_view text) {
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        Location at;
        // nlohmann reports the 1-based index of the last byte read.
        if (e.byte > 0) at.byte_offset = static_cast<int64_t>(e.byte - 1);
        throw Error(std::string("spent outputs JSON does not parse: ") + e.what(), at);
    } catch (const json::exception& e) {
        throw Error(std::string("spent outputs JSON does not parse: ") + e.what(), Location{});
    }
    if (!doc.is_object()) throw Error("spent outputs JSON: top level is not an object", Location{});
    const auto list = doc.find("spent_outputs");
    if (list == doc.end()) throw Error("spent outputs JSON: no \"spent_outputs\" field", Location{});
    if (!list->is_array()) throw Error("spent outputs JSON: \"spent_outputs\" is not an array", Location{});

    std::vector<SpentOutputEntry> entries;
    entries.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
        try {
            entries.push_back(ParseEntry((*list)[i], i));
        } catch (const json::exception& e) {
            // Type checks above make this unreachable; kept so no nlohmann exception escapes.
            throw Error("spent_outputs[" + std::to_string(i) + "]: " + e.what(), EntryLocation(i));
        }
    }
    return entries;
}

}  // namespace ibd

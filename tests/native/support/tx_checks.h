// Shared by the native suites: one transaction's inputs through VerifyScript (interpreter.h)
// with TransactionSignatureChecker, each signature check verified at once (ImmediateSink) and
// its record kept, as BlockValidation records them (check_buffer.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "primitives/transaction.h"
#include "script/interpreter.h"
#include "validation/block_validation.h"

namespace ibd::test {

struct InputEvaluation {
    bool ok = false;
    ScriptError serror = ScriptError::OK;
    std::string type;  // InputScriptTypeName (script_type.h)
    uint32_t checks = 0;
};

struct TxEvaluation {
    std::vector<uint8_t> checks;       // packed records, in the order the scripts asked for them
    std::vector<CheckOrigin> origins;  // one per record
    std::vector<uint8_t> verdicts;     // one per record
    std::vector<InputEvaluation> inputs;
    uint32_t ecdsa_checks = 0;
    uint32_t schnorr_checks = 0;
    std::map<std::string, uint32_t> inputs_by_type;
};

/** Evaluates every input of `tx` (block position `tx_index`) spending `spent` (one per input)
 *  under ScriptVerifyFlag bits `flags`. Hashes precomputed as BlockValidation does (BIP143 for
 *  a transaction with witnesses, BIP341 when some spent output is a v1 witness program). */
TxEvaluation EvaluateTransaction(const Transaction& tx, uint32_t tx_index, const std::vector<const SpentOutput*>& spent,
                                 uint32_t flags);

}  // namespace ibd::test

// Script type names for the coverage report: what kind of spend an input is, from the spent
// scriptPubKey and the input's scriptSig / witness (a name only; VerifyScript decides validity).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "primitives/transaction.h"

namespace ibd {

/** Script type name of input `in` spending an output with scriptPubKey `spk`: "p2pk", "p2pkh",
 *  "multisig" (bare), "p2sh-multisig", "p2sh-p2wpkh", "p2sh-p2wsh", "p2sh" (any other redeem
 *  script, or a scriptSig without one), "p2wpkh", "p2wsh", "p2tr-keypath" (one witness element
 *  after removing the BIP341 annex), "p2tr-scriptpath", "witness-unknown" (other witness
 *  versions / lengths, also nested in P2SH), "empty" (an empty scriptPubKey) and "nonstandard"
 *  (anything else). */
std::string InputScriptTypeName(const TxIn& in, const std::vector<uint8_t>& spk);

}  // namespace ibd

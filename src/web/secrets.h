// What the web service keeps secret, through libsodium: passwords hashed with argon2id
// (crypto_pwhash_str, its own salt and cost in the string), and random tokens (sessions,
// API tokens) that are stored only as their digest, so a copy of the database gives no one
// a way in. The CSRF token of a session is derived from it with the site's key (HMAC), so
// nothing more is stored for it.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace yard::web {

// libsodium ready; false (and why) when it cannot start (no entropy source).
Status init_secrets();

Result<std::string> hash_password(std::string_view password);
bool password_matches(const std::string& stored_hash, std::string_view password);

// 32 random bytes, hex: a session or API token, or the site's key.
std::string random_token();
// The digest a token is stored and looked up by (BLAKE2b, hex).
std::string token_digest(std::string_view token);
// HMAC of `message` under `key_hex` (a random_token()), hex.
std::string keyed_digest(std::string_view key_hex, std::string_view message);
// Equal in time that does not depend on where they differ.
bool same_secret(std::string_view a, std::string_view b);

}  // namespace yard::web

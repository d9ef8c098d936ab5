# SPDX-License-Identifier: Apache-2.0
# A test that cannot run here fails with a message saying why (cmake -DMESSAGE=... -P this).
message(FATAL_ERROR "${MESSAGE}")

/*
 * Copyright (c) 2024 The fibsync authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at:
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */


#ifndef SYNCD_STATUS_H
#define SYNCD_STATUS_H 1

/* syncd-status: SAI status codes in one byte.
 *
 * syncd keeps the outcome of every route in one byte (in the apply step's
 * error counters, and per Asic_Route row until it is written back), and
 * writes its SAI name into the row's error column.  Code 0 is success,
 * 1...0x17 are -SAI_STATUS_FAILURE...-SAI_STATUS_NOT_EXECUTED, 0x18...0x1c
 * the five attribute error ranges (their index lost), 0x1d anything
 * else.
 *
 * Thread safety: none needed; no state. */

#include "asic-sim/sai.h"

#define SYNCD_STATUS_N_CODES 0x1e
unsigned int syncd_status_code(sai_status_t);
const char *syncd_status_code_name(unsigned int code);

#endif /* syncd-status.h */

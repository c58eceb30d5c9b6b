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


#include <config.h>

#include "daemons/syncd/syncd-status.h"

#include "asic-sim/sai-util.h"

/* Returns the one-byte code of 'status' (see syncd-status.h). */
unsigned int
syncd_status_code(sai_status_t status)
{
    if (status <= 0 && status >= SAI_STATUS_NOT_EXECUTED) {
        return -status;
    } else if (SAI_STATUS_IS_INVALID_ATTRIBUTE(status)) {
        return 0x18;
    } else if (SAI_STATUS_IS_INVALID_ATTR_VALUE(status)) {
        return 0x19;
    } else if (SAI_STATUS_IS_ATTR_NOT_IMPLEMENTED(status)) {
        return 0x1a;
    } else if (SAI_STATUS_IS_UNKNOWN_ATTRIBUTE(status)) {
        return 0x1b;
    } else if (SAI_STATUS_IS_ATTR_NOT_SUPPORTED(status)) {
        return 0x1c;
    }
    return 0x1d;
}

/* Returns the SAI name of status code 'code' ("SAI_STATUS_FAILURE"). */
const char *
syncd_status_code_name(unsigned int code)
{
    static const sai_status_t attr_bases[] = {
        SAI_STATUS_INVALID_ATTRIBUTE_0, SAI_STATUS_INVALID_ATTR_VALUE_0,
        SAI_STATUS_ATTR_NOT_IMPLEMENTED_0, SAI_STATUS_UNKNOWN_ATTRIBUTE_0,
        SAI_STATUS_ATTR_NOT_SUPPORTED_0,
    };

    if (code < 0x18) {
        return sai_util_status_name(-(sai_status_t) code);
    } else if (code < 0x1d) {
        return sai_util_status_name(attr_bases[code - 0x18]);
    }
    return "SAI_STATUS_UNKNOWN";
}

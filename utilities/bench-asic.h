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

#ifndef BENCH_ASIC_H
#define BENCH_ASIC_H 1

/* "fibsync-bench asic": the in-process benchmark of the SAI simulator
 * (asic-sim/): bulk route creation and removal rates, lookup rates and
 * memory per IPv4 route.  'argv[0]' is the subcommand's name; returns the
 * process exit status. */
int bench_asic_main(int argc, char *argv[]);

#endif /* bench-asic.h */

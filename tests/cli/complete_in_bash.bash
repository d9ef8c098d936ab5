# SPDX-License-Identifier: Apache-2.0
# bash complete_in_bash.bash SCRIPT WORD...: completes the last WORD as bash would on the command
# line WORD... (the first is the program): sources SCRIPT, finds the function it registered for
# the program (complete -F), calls it with COMP_WORDS and COMP_CWORD set, and prints COMPREPLY,
# one word a line. Exits 3 when SCRIPT registers no function for the program.
script=$1
shift
# shellcheck source=/dev/null
source "$script" || exit 3
# As bash looks it up: for the program's path, then for its name.
spec=$(complete -p "$1" 2>/dev/null || complete -p "${1##*/}" 2>/dev/null) || exit 3
[[ $spec == *" -F "* ]] || exit 3
function=${spec#* -F }
function=${function%% *}
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
"$function" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
for word in "${COMPREPLY[@]}"; do
  printf '%s\n' "$word"
done

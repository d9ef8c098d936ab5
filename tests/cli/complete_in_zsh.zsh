# SPDX-License-Identifier: Apache-2.0
# zsh -f complete_in_zsh.zsh FOLDER|SCRIPT LINE: completes the end of LINE as zsh does when Tab
# is pressed there, and prints each match that completion offered, one a line. The completion
# comes from FOLDER put on $fpath before compinit (as an installed _kerntime is found), or from
# SCRIPT sourced after compinit. LINE is typed into an interactive zsh on a pseudo-terminal
# (zpty) in the current folder, where compadd is wrapped to write its matches to a file. Exits
# 3 when the completion does not finish within 10 s.
zmodload zsh/zpty zsh/zselect
completion=$1
line=$2
out=$(mktemp -d) || exit 3
trap 'zpty -d shell 2>/dev/null; rm -rf -- $out' EXIT
zpty shell zsh -f -i
zpty -w shell "PROMPT=''; cd ${(q)PWD}"
if [[ -d $completion ]]; then
  zpty -w shell "fpath=(${(q)completion} \$fpath); autoload -Uz compinit; compinit -u -D"
else
  zpty -w shell "autoload -Uz compinit; compinit -u -D; source ${(q)completion}"
fi
zpty -w shell "bindkey '^I' complete-word; zstyle ':completion:*' insert-tab false"
# The matches compadd keeps for the word being completed; a call that only fills an array for
# another function (-O, -A or -D before the words) is passed on as it is.
zpty -w shell "compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi
  local -a hits; builtin compadd -A hits \"\$@\"; print -rl -- \$hits >> ${(q)out}/matches
  builtin compadd \"\$@\"
}"
zpty -w shell "finished() { : >> ${(q)out}/matches; : > ${(q)out}/done }; comppostfuncs=(finished)"
zpty -w -n shell "$line"$'\t'
for i in {1..100}; do
  [[ -e $out/done ]] && break
  zselect -t 10
done
[[ -e $out/done ]] || exit 3
print -r -- "$(<$out/matches)"

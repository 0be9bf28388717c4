# bash completion for ulaudit: commands, calc quantities, and each command's
# (or quantity's) flags, read from the binary's own --help so that they
# always match it.  Installed by `make install` as
# share/bash-completion/completions/ulaudit; or: source tools/completion/ulaudit.bash

_ulaudit_flags()
{
    # every --flag the help text of "$@" mentions
    "$@" --help 2>/dev/null | grep -o -- '--[a-zA-Z][a-zA-Z0-9-]*' | sort -u
}

_ulaudit()
{
    local cur prev cmd bin
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    bin=${COMP_WORDS[0]}
    cmd=${COMP_WORDS[1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "calc audit calibrate attack vectors help --help --version" -- "$cur"))
        return 0
    fi
    case "$prev" in
    --out|--batch|--plot|--target|--in-models|--out-models|--scores-in|--scores-out)
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
        ;;
    esac
    case "$cmd" in
    help)
        [ "$COMP_CWORD" -eq 2 ] &&
            COMPREPLY=($(compgen -W "calc audit calibrate attack vectors" -- "$cur"))
        ;;
    calc)
        if [ "$COMP_CWORD" -eq 2 ]; then
            local qs
            qs=$("$bin" calc --help 2>/dev/null | sed -n 's/^  \([a-z][a-z0-9-]*\)\( \|$\).*/\1/p')
            COMPREPLY=($(compgen -W "$qs --help" -- "$cur"))
        elif [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$(_ulaudit_flags "$bin" calc "${COMP_WORDS[2]}")" -- "$cur"))
        fi
        ;;
    audit|calibrate|attack|vectors)
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$(_ulaudit_flags "$bin" "$cmd")" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        ;;
    esac
    return 0
}
complete -o filenames -F _ulaudit ulaudit

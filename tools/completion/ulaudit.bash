# bash completion for ulaudit: commands, calc quantities, each command's (or
# quantity's) flags and the values of flags that take one of a few words,
# all read from the binary's own --help so that they always match it.
# Installed by `make install` as share/bash-completion/completions/ulaudit;
# or: source tools/completion/ulaudit.bash
#
#   ulaudit calc <TAB>                  the quantities of `calc --help`
#   ulaudit calc theta --<TAB>          the flags of `calc theta --help`
#   ulaudit calc contraction --mode <TAB>   product adaptive
#   ulaudit attack --scores a,b --<TAB> the flags of the --scores form
#   ulaudit attack --scores in.txt,<TAB>    file names after the comma
#   ulaudit vectors --only <TAB>        the families of `vectors --help`
#   ulaudit import <TAB>                the formats of `import --help`
#   ulaudit help <TAB>                  the commands and certificate (the
#                                       format's page, ulaudit-certificate(5))

_ulaudit_help()
{
    "$@" --help 2>/dev/null
}

# The help text that lists the flags of the command line being completed.
_ulaudit_help_of_line()
{
    local bin=$1 cmd=$2 i
    case "$cmd" in
    calc)
        _ulaudit_help "$bin" calc "${COMP_WORDS[2]}"
        ;;
    attack)
        # the --scores form (without --in-models) has flags of its own
        local scores=0 models=0
        for ((i = 2; i < COMP_CWORD; i++)); do
            case "${COMP_WORDS[i]}" in
            --scores) scores=1 ;;
            --in-models|--out-models) models=1 ;;
            esac
        done
        if [ $scores -eq 1 ] && [ $models -eq 0 ]; then
            _ulaudit_help "$bin" attack --scores _,_
        else
            _ulaudit_help "$bin" attack
        fi
        ;;
    *)
        _ulaudit_help "$bin" "$cmd"
        ;;
    esac
}

# The words a flag accepts, when its help says so: "--flag a|b|c" in a
# usage line, or "--flag   a (remark), b or c (default ...)" in the flag's line.
_ulaudit_choices()
{
    local flag=$1 text=$2 w
    w=$(printf '%s\n' "$text" | grep -oE -- "$flag [a-z0-9-]+(\|[a-z0-9-]+)+" | head -n 1)
    if [ -n "$w" ]; then
        printf '%s\n' "${w#* }" | tr '|' ' '
        return
    fi
    # the flag's own line, its parenthesised remarks and a "what: " prefix dropped
    printf '%s\n' "$text" | grep -E -- "^ +$flag +" | head -n 1 |
        sed -E -e "s/^ +$flag +//" -e ':a' -e 's/ ?\([^()]*\)//' -e 'ta' -e 's/^[^:]*: //' |
        grep -oE '^([a-z0-9.-]+, )*[a-z0-9.-]+ or [a-z0-9.-]+([ ;,]|$)' |
        sed -E 's/[ ;,]$//; s/,//g; s/ or / /'
}

_ulaudit()
{
    local cur prev cmd bin help choices
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    bin=${COMP_WORDS[0]}
    cmd=${COMP_WORDS[1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "calc audit calibrate attack vectors import help --help --version" -- "$cur"))
        return 0
    fi
    case "$prev" in
    --out)
        if [ "$cmd" = calibrate ] || [ "$cmd" = import ]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        else
            COMPREPLY=($(compgen -d -- "$cur"))
        fi
        return 0
        ;;
    --batch|--plot|--target|--html)
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
        ;;
    --in-models|--out-models|--scores|--merge)
        # comma-separated lists of files (--scores: IN,OUT; --merge: shard
        # files or directories): complete the part after the last comma
        local head="" tail=$cur words=""
        if [ "$prev" = --scores ]; then
            # with --in-models: score names (the usage's "--scores a,b,c")
            local i
            for ((i = 2; i < COMP_CWORD; i++)); do
                [ "${COMP_WORDS[i]}" = --in-models ] && words=$(_ulaudit_help "$bin" attack |
                    grep -oE -- '--scores [a-z-]+(,[a-z-]+)+' | head -n 1 | cut -d' ' -f2 | tr ',' ' ')
            done
        fi
        if [[ "$cur" == *,* ]]; then
            head=${cur%,*},
            tail=${cur##*,}
        fi
        if [ -n "$words" ]; then
            COMPREPLY=($(compgen -W "$words" -- "$tail"))
        else
            COMPREPLY=($(compgen -f -- "$tail"))
        fi
        COMPREPLY=("${COMPREPLY[@]/#/$head}")
        compopt -o nospace 2>/dev/null
        return 0
        ;;
    --only)
        if [ "$cmd" = vectors ]; then
            COMPREPLY=($(compgen -W "$(_ulaudit_help "$bin" vectors |
                sed -n '/^Families:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')" -- "$cur"))
            return 0
        fi
        ;;
    --*)
        help=$(_ulaudit_help_of_line "$bin" "$cmd")
        choices=$(_ulaudit_choices "$prev" "$help")
        if [ -n "$choices" ]; then
            COMPREPLY=($(compgen -W "$choices" -- "$cur"))
            return 0
        fi
        ;;
    esac
    case "$cmd" in
    help)
        [ "$COMP_CWORD" -eq 2 ] &&
            COMPREPLY=($(compgen -W "calc audit calibrate attack vectors import certificate" -- "$cur"))
        ;;
    calc)
        if [ "$COMP_CWORD" -eq 2 ]; then
            local qs
            qs=$(_ulaudit_help "$bin" calc | sed -n 's/^  \([a-z][a-z0-9-]*\)\( \|$\).*/\1/p')
            COMPREPLY=($(compgen -W "$qs --help" -- "$cur"))
        elif [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$(_ulaudit_help_of_line "$bin" calc |
                grep -o -- '--[a-zA-Z][a-zA-Z0-9-]*' | sort -u)" -- "$cur"))
        fi
        ;;
    import)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "$(_ulaudit_help "$bin" import |
                sed -n '/^Formats:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p') --help" -- "$cur"))
        elif [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$(_ulaudit_help "$bin" import |
                grep -o -- '--[a-zA-Z][a-zA-Z0-9-]*' | sort -u)" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        ;;
    audit|calibrate|attack|vectors)
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$(_ulaudit_help_of_line "$bin" "$cmd" |
                grep -o -- '--[a-zA-Z][a-zA-Z0-9-]*' | sort -u)" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        ;;
    esac
    return 0
}
complete -o filenames -F _ulaudit ulaudit

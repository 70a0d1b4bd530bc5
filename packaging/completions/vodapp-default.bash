
# `handle` is vodapp's default subcommand (`vodapp payload.json` is `vodapp handle payload.json`),
# which swift-argument-parser's script does not know: it completes only subcommands in first
# place, and nothing after a word that is none. This completes such a line as the same line with
# `handle` in second place, and offers files beside the subcommands in first place.
_vodapp_with_default_handle() {
    local -r first="${COMP_WORDS[1]-}"
    if [[ "${COMP_CWORD}" -eq 1 ]]; then
        _vodapp "$@"
        if [[ "${2}" != -* ]]; then
            local file
            while IFS= read -r file; do
                [[ -n "${file}" ]] && COMPREPLY+=("${file}")
            done < <(compgen -f -- "${2}")
        fi
        return
    fi
    case "${first}" in
    handle|listen|poll|status|forget|help|-h|--help|--version)
        _vodapp "$@"
        ;;
    *)
        local -a COMP_WORDS=("${COMP_WORDS[0]}" handle "${COMP_WORDS[@]:1}")
        local -i COMP_CWORD=$((COMP_CWORD + 1))
        local COMP_LINE="${COMP_LINE/#"${COMP_WORDS[0]}"/"${COMP_WORDS[0]} handle"}"
        local -i COMP_POINT=$((COMP_POINT + 7))
        _vodapp "$@"
        ;;
    esac
}
complete -o filenames -F _vodapp_with_default_handle vodapp

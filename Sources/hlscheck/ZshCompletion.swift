import ArgumentParser

/// What hlscheck changes in the zsh completion script swift-argument-parser generates.
///
/// The generated `_hlscheck` completes a subcommand's arguments only after the subcommand's name:
/// `hlscheck Sampl<TAB>` (which runs `check`, the default subcommand) offered subcommand names and
/// no path. The generated function is renamed, and a `_hlscheck` of ours — the name `#compdef`
/// registers, and the one zsh autoloads from `site-functions/_hlscheck` — hands it the words as
/// if `check` had been typed whenever no subcommand is named.
enum ZshCompletion {
    static func script(_ generated: String, root: any ParsableCommand.Type) -> String {
        let name = root.configuration.commandName ?? "hlscheck"
        let function = "_" + name
        let renamed = function + "_named_subcommand"
        let subcommands =
            root.configuration.subcommands.map {
                ($0.configuration.commandName ?? "", $0.configuration.abstract)
            } + [("help", "Show subcommand help information.")]
        let described = subcommands.map { name, abstract in
            "'\(name):\(abstract.replacing("'", with: "'\\''"))'"
        }
        let wrapper = """
            # \(name) PATH… runs `\(name) check PATH…`: with no subcommand named, complete as check does
            # (playlists, folders, check's options), and subcommand names too while the first word is typed.
            \(function)() {
                if (( CURRENT > 2 )) && [[ ${words[2]} == (\(subcommands.map(\.0).joined(separator: "|"))) ]]; then
                    \(renamed) "$@"
                    return
                fi
                local -i ret=1
                if (( CURRENT == 2 )) && [[ ${words[CURRENT]} != -* ]]; then
                    local -a subcommands=(\(described.joined(separator: " ")))
                    _describe -V subcommand subcommands && ret=0
                fi
                words=("${words[1]}" check "${words[@]:1}")
                (( CURRENT++ ))
                \(renamed) "$@" && ret=0
                return ret
            }


            """
        // The generated root function is the one defined at the start of a line as `_hlscheck() {`;
        // the subcommands' functions (`_hlscheck_check`) keep their names.
        let definition = "\n\(function)() {\n"
        guard let range = generated.firstRange(of: definition) else { return generated }
        var result = generated
        result.replaceSubrange(range, with: "\n\(wrapper)\(renamed)() {\n")
        return result
    }
}

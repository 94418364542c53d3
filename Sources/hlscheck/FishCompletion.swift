import ArgumentParser

/// What hlscheck adds to the fish completion script swift-argument-parser generates.
///
/// The generated completions of a subcommand's arguments apply only after the subcommand's name:
/// `hlscheck Sampl<TAB>` (which runs `check`, the default subcommand) offered subcommand names and
/// no path. With no subcommand named, this completes the command line as fish would complete it
/// with `check` typed after `hlscheck` (`complete -C`): the playlists and folders check takes, its
/// options and their values.
enum FishCompletion {
    static func script(_ generated: String, root: any ParsableCommand.Type) -> String {
        let name = root.configuration.commandName ?? "hlscheck"
        let subcommands = root.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        return generated + """

            # \(name) PATH… runs `\(name) check PATH…`: with no subcommand named, complete as check does.
            function __\(name)_names_subcommand
                set -l tokens (commandline -opc)
                contains -- "$tokens[2]" \(subcommands.joined(separator: " "))
            end

            function __\(name)_as_check
                set -l tokens (commandline -opc)
                complete -C (string join ' ' -- (string escape -- $tokens[1] check $tokens[2..]) (commandline -ct))
            end

            complete -c '\(name)' -n 'not __\(name)_names_subcommand' -a '(__\(name)_as_check)'

            """
    }
}

import ArgumentParser

/// What hlscheck changes in the fish completion script swift-argument-parser generates.
///
/// The generated completions of a subcommand's arguments apply only after the subcommand's name:
/// `hlscheck Sampl<TAB>` (which runs `check`, the default subcommand) offered subcommand names and
/// no path. With no subcommand named, this completes the command line as fish would complete it
/// with `check` typed after `hlscheck` (`complete -C`): the playlists and folders check takes, its
/// options and their values. And `--output FORMAT=PATH` is completed in fish itself (`FORMAT=`,
/// then the path after the `=`), not by a call back into hlscheck, which needs the cursor position
/// of an interactive command line.
enum FishCompletion {
    static func script(_ generated: String, root: any ParsableCommand.Type) -> String {
        let name = root.configuration.commandName ?? "hlscheck"
        let subcommands = root.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        let outputValues = "__\(name)_output_values"
        // check's --output: the generated line ends in the call back into the binary.
        let callBack = #/'\(__[A-Za-z0-9_]+_custom_completion ---completion check -- --output .*\)'$/#
        let script = generated.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.replacing(callBack, with: "'(\(outputValues))'")
        }.joined(separator: "\n")
        return script + """

            # --output FORMAT=PATH: the formats while the word has no "=", then paths after it.
            function \(outputValues)
                set -l parts (string split -m 1 = -- (commandline -ct))
                if test (count $parts) -eq 2
                    for path in (__fish_complete_path $parts[2])
                        printf '%s=%s\\n' $parts[1] $path
                    end
                else
                    printf '%s=\\n' \(ReportFormat.allCases.map(\.rawValue).joined(separator: " "))
                end
            end

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

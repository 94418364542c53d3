import ArgumentParser
import FoundationEssentials
import HLSCheck
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What hlscheck adds to the bash completion script swift-argument-parser generates.
///
/// The generated script completes a subcommand's arguments only after the subcommand's name, so
/// `hlscheck Sampl<TAB>` (which runs `check`, the default subcommand) offered subcommand names
/// and no path. And bash splits words at `=` (`COMP_WORDBREAKS`), so in `--output json=rep<TAB>`
/// the generated script sees `json`, `=`, `rep` and no longer knows an option value is typed.
/// This wrapper, registered in place of the generated function, handles both and hands every
/// other case to it.
enum BashCompletion {
    static func defaultSubcommand(root: any ParsableCommand.Type) -> String {
        let name = root.configuration.commandName ?? "hlscheck"
        let function = "_" + name
        let subcommands = root.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        return """

            # \(name) PATH… runs `\(name) check PATH…`: with no subcommand named, complete as check does,
            # and subcommand names too while the first word is typed. In --output FORMAT=PATH, bash splits
            # the word at "=": after it comes a file name.
            \(function)_with_default() {
                COMPREPLY=()
                local -i cword=${COMP_CWORD}
                if (( cword >= 3 )) && [[ ${COMP_WORDS[cword-1]} == = && ${COMP_WORDS[cword-3]} == @(-o|--output) ]]; then
                    compopt -o filenames 2>/dev/null
                    local file
                    while IFS='' read -r file; do COMPREPLY+=("${file}"); done < <(compgen -f -- "$2")
                    return
                fi
                case "${COMP_WORDS[1]-}" in
                \(subcommands.joined(separator: "|")))
                    \(function) "$@"
                    ;;
                *)
                    if (( cword == 1 )) && [[ $2 != -* ]]; then
                        COMPREPLY+=($(compgen -W '\(subcommands.joined(separator: " "))' -- "$2"))
                    fi
                    local -a COMP_WORDS=("${COMP_WORDS[0]}" check "${COMP_WORDS[@]:1}")
                    local COMP_CWORD=$((cword + 1))
                    local COMP_LINE="${COMP_WORDS[0]} check${COMP_LINE#"${COMP_WORDS[0]}"}"
                    local COMP_POINT=$((COMP_POINT + 6))
                    \(function) "$1" "$2" "$( (( cword == 1 )) && echo check || printf %s "$3")"
                    ;;
                esac
                # FORMAT= for --output: the path follows without a space.
                if (( ${#COMPREPLY[@]} > 0 )) && [[ ${COMPREPLY[0]} == *= ]]; then compopt -o nospace 2>/dev/null; fi
                return 0
            }
            complete -o filenames -F \(function)_with_default \(name)

            """
    }
}

extension OutputTarget {
    /// Completions of `--output`'s value: `FORMAT=` while the format is typed (bash splits the
    /// word at `=`, and BashCompletion completes the path after it; other shells get the paths
    /// after `FORMAT=` here).
    static func completions(_ typed: String) -> [String] {
        guard let equals = typed.firstIndex(of: "=") else {
            return ReportFormat.allCases.map { $0.rawValue + "=" }.filter { $0.hasPrefix(typed) }
        }
        let format = String(typed[...equals])
        let path = String(typed[typed.index(after: equals)...])
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return names.sorted().compactMap { name -> String? in
            let candidate = folder + name
            guard candidate.hasPrefix(path), name.hasPrefix(".") == path.dropFirst(folder.count).hasPrefix(".") else {
                return nil
            }
            return format + candidate + (StreamDiscovery.isFolder(candidate) ? "/" : "")
        }
    }
}

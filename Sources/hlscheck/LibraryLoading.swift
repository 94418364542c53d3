import ArgumentParser
import HLSCheck
import MediaInspection

/// FFmpeg is loaded on first use (issue 11). A command that reads media loads it before it starts,
/// so that a missing library is one line naming it and the package to install, and exit status 2
/// ("could not run", design.md §4), before anything is read or written.
func requireFFmpeg() throws {
    do {
        try FFmpegLibraries.load()
    } catch {
        printError("hlscheck: \(error.description)")
        throw ExitCode(2)
    }
}

/// For `check`, which reads media unless `--playlist-only`: the message says that option too.
func loadFFmpegForCheck() throws(CheckError) {
    do {
        try FFmpegLibraries.load()
    } catch {
        throw CheckError("\(error.description); or check the playlists only with --playlist-only")
    }
}

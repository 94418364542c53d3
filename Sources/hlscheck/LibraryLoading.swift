import ArgumentParser
import FoundationEssentials
import HLSCheck
import MediaInspection

/// FFmpeg is loaded on first use. A command that reads media loads it before it starts,
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

/// For `check` of a remote stream: FFmpeg loads on a thread of its own while the playlists and
/// the first segments travel (loopback within 1.5× of local: the dynamic loader's
/// ~40 ms on one core no longer precede the first request, and the event loop fetches on the
/// other core meanwhile). The first inspection waits for it (each lazy stub's `pthread_once`).
/// A library that cannot be loaded still stops the run with exit status 2, naming it and its
/// package: at the first inspection (the stub's message), or after a run that inspected nothing
/// (`loadFFmpegForCheck` again, which returns the recorded failure at once).
func startLoadingFFmpeg() {
    startDetachedThread {
        _ = try? FFmpegLibraries.load()
    }
}

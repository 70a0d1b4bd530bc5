import Foundation
import Testing
import UnitTestSupport
import VODAppDelivery

@Suite struct DefaultDirectoryTests {
    @Test func vodappDirWinsOverEverything() {
        #expect(DeliveryOptions.defaultDirectory(environment: ["VODAPP_DIR": "/srv/media", "HOME": "/home/u"]) == "/srv/media")
    }

    @Test func xdgVideosFolderFromUserDirsFile() throws {
        let home = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: home.child(".config"), withIntermediateDirectories: true)
        try """
        # written by xdg-user-dirs-update
        XDG_DESKTOP_DIR="$HOME/Desktop"
        XDG_VIDEOS_DIR="$HOME/Filme"
        """.write(toFile: home.child(".config/user-dirs.dirs"), atomically: true, encoding: .utf8)
        #expect(DeliveryOptions.defaultDirectory(environment: ["HOME": home.path]) == home.path + "/Filme/VODApp")
    }

    @Test func withoutUserDirsItIsVideosInHome() throws {
        let home = try ScratchDirectory()
        #expect(DeliveryOptions.defaultDirectory(environment: ["HOME": home.path]) == home.path + "/Videos/VODApp")
    }
}

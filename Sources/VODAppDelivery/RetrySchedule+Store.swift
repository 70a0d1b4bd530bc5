import Foundation
import VODAppDeliveryPolicy
import VODAppDevice
import VODAppStore

extension RetrySchedule {
    /// Why DIR's unfinished items cannot be looked at: its store cannot be read.
    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The schedule of DIR's unfinished items now, under `options`: read from the store, with the
    /// device's conditions asked only when something could be deferred. A DIR without a store
    /// has nothing unfinished. With `--sync`, only the latest push's items are wanted, so only
    /// they are retried.
    /// - Parameter device: where the conditions come from: the system's monitors unless a test says.
    public static func now(for options: DeliveryOptions, busy: Set<String>, retried: [String: Date],
                           device: any DeviceConditionSource = SystemDeviceConditions()) async throws(Unreadable) -> RetrySchedule {
        var records: [StoredItem]
        do {
            guard try StateStore.exists(in: options.directory) else {
                return RetrySchedule(items: [], now: Date(), conditions: DeviceConditions(), deferral: options.deferral)
            }
            let store = try StateStore.shared(directory: options.directory)
            records = try store.items(in: [.partial, .failed, .deferred])
            if options.sync, !records.isEmpty {
                let wanted = Set(try store.latestPush().map(\.key))
                if !wanted.isEmpty { records.removeAll { !wanted.contains($0.key) } }
            }
        } catch {
            throw Unreadable(description: StateStoreError.oneLine(error))
        }
        let conditions = options.deferral.defersAnything && !records.isEmpty ? await device.current() : DeviceConditions()
        return RetrySchedule(items: records, now: Date(), busy: busy, retried: retried, conditions: conditions, deferral: options.deferral)
    }
}

using System.Globalization;
using System.Text;
using Notifications.Shared.Contract;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The <c>dead_letter</c> table against the dead-letter queue at the end of a run: one row per message the
/// consumers dead-lettered, matched by the message's <c>x-dead-key</c>, with the notification id its body
/// holds. The broker's own dead letters (a quorum queue's delivery limit, an expiry: <c>x-death</c>) go through the dead-letter
/// inbox, whose recorder gives each its row and key too: a message without a key (<see cref="ByBroker"/>, one the broker put
/// in the dead-letter queue unrecorded) fails the check. The key is the delivery attempt's, so a
/// consumer killed after the publish and before the ack leaves two messages with one key (its redelivered copy
/// publishes the recorded dead letter again): those are counted apart (<see cref="Duplicates"/>), and the distinct
/// keys must match the rows one to one (the twice-published are bounded by <see cref="ChaosVerdict.KilledWindow"/>).
/// </summary>
internal sealed record DeadLetterTableCheck(int Messages, int Rows, int WithoutRow, int RowsWithoutMessage, int WrongId, int ByBroker)
{
    /// <summary>Keyed messages beyond the first of their key: a dead letter published twice (a kill between publish and ack).</summary>
    public int Duplicates { get; init; }

    /// <summary>The distinct keys of the keyed messages.</summary>
    public int Keys => Messages - Duplicates;

    public bool Agrees => Keys == Rows && WithoutRow == 0 && RowsWithoutMessage == 0 && WrongId == 0 && ByBroker == 0;

    public static DeadLetterTableCheck Compare(
        IReadOnlyList<(string Reason, byte[] Body, IDictionary<string, object?> Headers)> queued, IReadOnlyList<(Guid Key, long? NotificationId)> rows)
    {
        var byKey = rows.ToDictionary(r => r.Key, r => r.NotificationId);
        var keyed = queued.Select(d => (Key: KeyOf(d.Headers), d.Body)).Where(d => d.Key is not null).ToList();
        int withoutRow = keyed.Count(d => !byKey.ContainsKey(d.Key!.Value));
        var queuedKeys = keyed.Select(d => d.Key!.Value).ToHashSet();
        int wrongId = keyed.Count(d => byKey.TryGetValue(d.Key!.Value, out long? id) && id != MessageSerializer.ReadId(d.Body));
        return new DeadLetterTableCheck(keyed.Count, rows.Count, withoutRow, rows.Count(r => !queuedKeys.Contains(r.Key)), wrongId,
            queued.Count - keyed.Count)
        {
            Duplicates = keyed.Count - queuedKeys.Count,
        };
    }

    /// <summary>The counts in a few words, for the matrix's notes column.</summary>
    public string Summary => string.Create(CultureInfo.InvariantCulture,
        $"dead_letter {(Agrees ? "=" : "DIFFERS:")} {Keys} keys/{Rows} rows, {Duplicates} published twice");

    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"dead_letter table {(Agrees ? "matches" : "DIFFERS FROM")} the dead-letter queue: {Messages} message(s), {Keys} key(s), {Rows} row(s), "
        + $"{Duplicates} published twice, {WithoutRow} without a row, {RowsWithoutMessage} row(s) without a message, {WrongId} with another id; {ByBroker} by the broker");

    private static Guid? KeyOf(IDictionary<string, object?> headers) =>
        headers.TryGetValue("x-dead-key", out var value) && value is byte[] bytes && Guid.TryParse(Encoding.UTF8.GetString(bytes), out var key) ? key : null;
}

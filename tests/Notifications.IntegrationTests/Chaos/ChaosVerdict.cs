using System.Globalization;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The oracle of RELIABILITY.md, counted at the edges: what was committed against what the SMTP server
/// received, plus what is kept as dead letters or rejected rows.
/// </summary>
internal sealed record ChaosVerdict(
    int Scenario, string Name, string Mode, int Inserted, int Delivered, int Lost, int Duplicated, int Unexpected,
    int DeadLettered, int Unaccounted, long LeftInOutbox, uint LeftInQueues, TimeSpan Elapsed, string Notes, bool NoDeadLetters = false,
    bool NoDuplicates = false, int Violations = 0)
{
    public bool Passed => Unexpected == 0 && Unaccounted == 0 && LeftInOutbox == 0 && LeftInQueues == 0
        && (Mode == "AtLeastOnce" ? Lost == 0 : Duplicated == 0) && (!NoDeadLetters || DeadLettered == 0)
        && (!NoDuplicates || Duplicated == 0) && Violations == 0 && DeadLetterTable is not { Agrees: false };

    /// <summary>The <c>dead_letter</c> table against the dead-letter queue (null when not compared).</summary>
    public DeadLetterTableCheck? DeadLetterTable { get; init; }

    public static ChaosVerdict Judge(
        int scenario, string name, string mode, IReadOnlyList<long> committed, IReadOnlyList<long> rolledBack,
        IReadOnlyDictionary<long, int> received, IReadOnlySet<long> dead, IReadOnlySet<long> rejected, IReadOnlySet<long> markedSending,
        long leftInOutbox, uint leftInQueues, TimeSpan elapsed, string notes, bool noDeadLetters = false, bool noDuplicates = false, int violations = 0)
    {
        var committedSet = committed.ToHashSet();
        var lost = committed.Where(id => !received.ContainsKey(id) && !dead.Contains(id) && !rejected.Contains(id)).ToList();
        // At most once may lose what it marked and acked before a crash; every such loss carries the mark.
        int unaccounted = mode == "AtLeastOnce" ? lost.Count : lost.Count(id => !markedSending.Contains(id));
        int unexpected = received.Keys.Count(id => !committedSet.Contains(id)) + rolledBack.Count(received.ContainsKey);
        return new ChaosVerdict(scenario, name, mode, committed.Count,
            received.Keys.Count(committedSet.Contains), lost.Count, received.Values.Sum(n => Math.Max(0, n - 1)), unexpected,
            dead.Count(committedSet.Contains) + rejected.Count(committedSet.Contains), unaccounted, leftInOutbox, leftInQueues, elapsed, notes,
            noDeadLetters, noDuplicates, violations);
    }

    public string ToTsv() => string.Join('\t',
        Scenario.ToString(CultureInfo.InvariantCulture), Name, Mode, Inserted.ToString(CultureInfo.InvariantCulture),
        Delivered.ToString(CultureInfo.InvariantCulture), Lost.ToString(CultureInfo.InvariantCulture),
        Duplicated.ToString(CultureInfo.InvariantCulture), Unexpected.ToString(CultureInfo.InvariantCulture),
        DeadLettered.ToString(CultureInfo.InvariantCulture), Unaccounted.ToString(CultureInfo.InvariantCulture),
        Passed ? "pass" : "FAIL", Elapsed.TotalSeconds.ToString("F0", CultureInfo.InvariantCulture), Notes);

    public override string ToString() =>
        $"#{Scenario} {Name} [{Mode}]: inserted {Inserted}, delivered {Delivered}, lost {Lost}, duplicated {Duplicated}, "
        + $"unexpected {Unexpected}, dead-lettered {DeadLettered}, unaccounted {Unaccounted}, left in outbox {LeftInOutbox}, "
        + $"left in queues {LeftInQueues} -> {(Passed ? "pass" : "FAIL")} ({Notes}){(DeadLetterTable is { } table ? $"; {table}" : "")}";
}

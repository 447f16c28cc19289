using System.Globalization;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The oracle of RELIABILITY.md, counted at the edges: what was committed against what the SMTP server
/// received, plus what is kept as dead letters or rejected rows.
/// </summary>
internal sealed record ChaosVerdict(
    int Scenario, string Name, string Mode, int Inserted, int Delivered, int Lost, int Duplicated, int Unexpected,
    int DeadLettered, int Unaccounted, long LeftInOutbox, uint LeftInQueues, TimeSpan Elapsed, string Notes, bool NoDeadLetters = false,
    int Violations = 0)
{
    public bool Passed => Unexpected == 0 && Unaccounted == 0 && LeftInOutbox == 0 && LeftInQueues == 0
        && !BudgetRefused && WithinBudget && (!NoDeadLetters || DeadLettered == 0) && Violations == 0 && DeadLetterTable is not { Agrees: false }
        && (DeadLetterTable?.Duplicates ?? 0) <= Budget.Sends + KilledWindow;

    /// <summary>
    /// What killed consumers held unacked (<see cref="ChaosRun.Killed"/>: channels × prefetch × envelope size, no more than was in
    /// flight at the kill): dead letters published and not yet acked come back and are published again with their key, so the
    /// dead queue may hold that many more messages than keys.
    /// </summary>
    public int KilledWindow { get; init; }

    /// <summary>The <c>dead_letter</c> table against the dead-letter queue (null when not compared).</summary>
    public DeadLetterTableCheck? DeadLetterTable { get; init; }

    /// <summary>The sends the scenario's fault may have cut; none unless the run says otherwise.</summary>
    public ChaosBudget Budget { get; init; } = ChaosBudget.None;

    /// <summary>
    /// A budget above the rows of the run was not derived from what the fault cut (each cut is bounded by what was in flight
    /// when it came, <see cref="ChaosBudget.Plus"/>): it would excuse anything, so the verdict refuses it.
    /// </summary>
    public bool BudgetRefused => Budget.Sends > Inserted;

    /// <summary>
    /// Committed notifications neither received nor accounted for by the scenario's fault, but dead-lettered or suppressed
    /// for a reason the fault did not cause (<see cref="ChaosCauses"/>): part of <see cref="Lost"/> and of <see cref="Unaccounted"/>.
    /// </summary>
    public int LostToUncausedEnds { get; init; }

    /// <summary>
    /// The mode's promise, with only what <see cref="Budget"/> excuses: at least once loses nothing and sends
    /// no more extra copies than sends were cut; at most once sends nothing twice and loses no more than that.
    /// </summary>
    public bool WithinBudget => Mode == "AtLeastOnce"
        ? Lost == 0 && Duplicated <= Budget.Sends
        : Duplicated == 0 && Lost <= Budget.Sends;

    public static ChaosVerdict Judge(
        int scenario, string name, string mode, IReadOnlyList<long> committed, IReadOnlyList<long> rolledBack,
        IReadOnlyDictionary<long, int> received, IReadOnlyList<(long Id, string Reason)> deadLetters, IReadOnlySet<long> rejected, IReadOnlySet<long> markedSending,
        long leftInOutbox, uint leftInQueues, TimeSpan elapsed, string notes, bool noDeadLetters = false, int violations = 0,
        IReadOnlySet<long>? suppressed = null, ChaosCauses? causes = null)
    {
        causes ??= ChaosCauses.None;
        var committedSet = committed.ToHashSet();
        // A dead letter (or a suppression: recorded in the delivery log, never sent) accounts for its notification only when
        // the scenario's fault caused it; one for any other reason — a transient outage given up on — is a loss.
        var dead = deadLetters.Where(d => causes.Caused(d.Reason)).Select(d => d.Id).ToHashSet();
        var ended = suppressed is not null && causes.Suppresses ? dead.Union(suppressed).ToHashSet() : dead;
        var endedOtherwise = deadLetters.Select(d => d.Id).Concat(suppressed ?? new HashSet<long>()).ToHashSet();
        var lost = committed.Where(id => !received.ContainsKey(id) && !ended.Contains(id) && !rejected.Contains(id)).ToList();
        int uncaused = lost.Count(endedOtherwise.Contains);
        // At most once may lose what it marked and acked before a crash; every such loss carries the mark. A notification
        // dead-lettered or suppressed without cause is never excused by its mark: its consumer decided, nothing cut it.
        int unaccounted = mode == "AtLeastOnce" ? lost.Count : lost.Count(id => !markedSending.Contains(id) || endedOtherwise.Contains(id));
        int unexpected = received.Keys.Count(id => !committedSet.Contains(id)) + rolledBack.Count(received.ContainsKey);
        return new ChaosVerdict(scenario, name, mode, committed.Count,
            received.Keys.Count(committedSet.Contains), lost.Count, received.Values.Sum(n => Math.Max(0, n - 1)), unexpected,
            dead.Count(committedSet.Contains) + rejected.Count(committedSet.Contains), unaccounted, leftInOutbox, leftInQueues, elapsed, notes,
            noDeadLetters, violations)
        {
            LostToUncausedEnds = uncaused,
        };
    }

    public string ToTsv() => string.Join('\t',
        Scenario.ToString(CultureInfo.InvariantCulture), Name, Mode, Inserted.ToString(CultureInfo.InvariantCulture),
        Delivered.ToString(CultureInfo.InvariantCulture), Lost.ToString(CultureInfo.InvariantCulture),
        Duplicated.ToString(CultureInfo.InvariantCulture), Unexpected.ToString(CultureInfo.InvariantCulture),
        DeadLettered.ToString(CultureInfo.InvariantCulture), Unaccounted.ToString(CultureInfo.InvariantCulture),
        Budget.ToString(), Passed ? "pass" : "FAIL", Elapsed.TotalSeconds.ToString("F0", CultureInfo.InvariantCulture),
        string.Join("; ", new[]
        {
            Notes, DeadLetterTable is { Messages: > 0 } table ? table.Summary : "",
            LostToUncausedEnds > 0 ? $"{LostToUncausedEnds} lost: dead-lettered or suppressed without cause" : "",
            BudgetRefused ? "budget refused: above the rows" : "",
        }.Where(n => n.Length > 0)));

    public override string ToString() =>
        $"#{Scenario} {Name} [{Mode}]: inserted {Inserted}, delivered {Delivered}, lost {Lost}, duplicated {Duplicated}, "
        + $"unexpected {Unexpected}, dead-lettered {DeadLettered}, unaccounted {Unaccounted}, left in outbox {LeftInOutbox}, "
        + $"left in queues {LeftInQueues}, budget {Budget}{(BudgetRefused ? " (budget refused: above the run's rows)" : "")}"
        + $"{(LostToUncausedEnds > 0 ? $", {LostToUncausedEnds} of the lost dead-lettered or suppressed for a reason the scenario did not cause" : "")}"
        + $" -> {(Passed ? "pass" : "FAIL")} ({Notes}){(DeadLetterTable is { } table ? $"; {table}" : "")}";
}

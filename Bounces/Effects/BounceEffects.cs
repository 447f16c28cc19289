using System.Data.Common;
using Dapper;
using Microsoft.Extensions.Options;
using Notifications.Bounces.Reports;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;

namespace Notifications.Bounces.Effects;

/// <summary>
/// The one place a report's effects are written, inside the caller's transaction: each outcome recorded once
/// (<c>notification_outcome</c>; the same DSN twice records nothing the second time), and the suppression entry it calls
/// for through the project's suppression store: a bounce <c>hard_bounce</c> (all mail), a complaint <c>complaint</c> (bulk
/// mail: a password reset still goes), and the <see cref="BounceReceiverOptions.SoftBounceLimit"/>-th deferral within
/// <see cref="BounceReceiverOptions.SoftBounceWindow"/> <c>soft_bounce</c> (all mail). A bounce or a complaint recorded is
/// also an outcome event (<c>notification.bounced</c>, <c>.complained</c>) for the endpoints subscribed to it, in the same
/// transaction (<see cref="OutcomeEvents"/>, docs/outcome-events.md); a deferral is none.
/// </summary>
internal sealed class BounceEffects(
    IBounceDatabase database, ISuppressionStore suppressions, OutcomeEvents events, IOptions<BounceReceiverOptions> options,
    IOptions<DatabaseOptions> databaseOptions, TimeProvider time)
{
    private const int MaxStatus = 32;
    private const int MaxDiagnostic = 1000;

    /// <summary>What the report changed: null when the database knows no delivery of its notification (nothing changed).</summary>
    public async Task<IReadOnlyList<AppliedOutcome>?> ApplyAsync(
        DbConnection connection, DbTransaction transaction, BounceReport report, CancellationToken cancellationToken)
    {
        long id = report.NotificationId ?? throw new ArgumentException("a dropped report has no effects", nameof(report));
        if (await connection.ExecuteScalarAsync<int>(Command(database.DeliveredSql, new { Id = id }, transaction, cancellationToken)) == 0)
        {
            return null;
        }

        var applied = new List<AppliedOutcome>();
        foreach (var outcome in report.Outcomes)
        {
            var row = new
            {
                Id = id, outcome.Outcome, outcome.Recipient, Status = Cut(outcome.Status, MaxStatus), Diagnostic = Cut(outcome.Diagnostic, MaxDiagnostic),
            };
            if (await connection.ExecuteAsync(Command(database.RecordOutcomeSql, row, transaction, cancellationToken)) > 0)
            {
                applied.Add(new AppliedOutcome(outcome, await SuppressAsync(connection, transaction, id, outcome, cancellationToken)));
            }
        }

        await events.WriteAsync(connection, transaction, Events(id, applied), cancellationToken);
        return applied;
    }

    private async Task<string?> SuppressAsync(DbConnection connection, DbTransaction transaction, long id, RecipientOutcome outcome, CancellationToken cancellationToken)
    {
        string said = $"{outcome.Status} {outcome.Diagnostic}".Trim();
        var (reason, scope, detail) = outcome.Outcome switch
        {
            Outcomes.Bounced => (SuppressionReasons.HardBounce, SuppressionReasons.AllScope, $"bounce report of notification {id}: {said}"),
            Outcomes.Complained => (SuppressionReasons.Complaint, SuppressionReasons.BulkScope, $"complaint (ARF {said}) about notification {id}"),
            _ => await SoftBounceAsync(connection, transaction, id, outcome, said, cancellationToken),
        };
        if (reason is null)
        {
            return null;
        }

        await suppressions.AddAsync(connection, transaction, outcome.Recipient, reason, scope!, detail, cancellationToken);
        return reason;
    }

    private async Task<(string? Reason, string? Scope, string? Detail)> SoftBounceAsync(
        DbConnection connection, DbTransaction transaction, long id, RecipientOutcome outcome, string said, CancellationToken cancellationToken)
    {
        var settings = options.Value;
        var since = time.GetUtcNow() - settings.SoftBounceWindow;
        int deferred = await connection.ExecuteScalarAsync<int>(
            Command(database.CountDeferredSql, new { outcome.Recipient, Since = since.UtcDateTime }, transaction, cancellationToken));
        return deferred < settings.SoftBounceLimit ? (null, null, null)
            : (SuppressionReasons.SoftBounce, SuppressionReasons.AllScope,
               $"{deferred} notifications deferred within {settings.SoftBounceWindow.TotalDays:0.#} days, the latest {id}: {said}");
    }

    private List<OutcomeEvent> Events(long id, List<AppliedOutcome> applied)
    {
        var now = time.GetUtcNow();
        return applied
            .Select(a => a.Outcome)
            .Where(o => o.Outcome is Outcomes.Bounced or Outcomes.Complained)
            .Select(o => new OutcomeEvent(
                id, o.Outcome == Outcomes.Bounced ? OutcomeEventTypes.Bounced : OutcomeEventTypes.Complained, NotificationChannels.Email, o.Recipient, now,
                OutcomeEventBody.Detail(("status", o.Status), ("diagnostic", Cut(o.Diagnostic, MaxDiagnostic)))))
            .ToList();
    }

    private static string? Cut(string? text, int length) => text is { Length: > 0 } && text.Length > length ? text[..length] : text;

    private CommandDefinition Command(string sql, object parameters, DbTransaction transaction, CancellationToken cancellationToken) =>
        new(sql, parameters, transaction, (int)databaseOptions.Value.CommandTimeout.TotalSeconds, cancellationToken: cancellationToken);
}

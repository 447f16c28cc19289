using Notifications.Bounces.Reports;

namespace Notifications.Bounces.Effects;

/// <summary>One database transaction per report: <see cref="BounceEffects.ApplyAsync"/> on a connection of its own, committed.</summary>
internal sealed class BounceReportWriter(IBounceDatabase database, BounceEffects effects)
{
    /// <summary>The outcomes recorded for the first time; null when the database knows no delivery of the notification.</summary>
    public async Task<IReadOnlyList<AppliedOutcome>?> WriteAsync(BounceReport report, CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var applied = await effects.ApplyAsync(connection, transaction, report, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        return applied;
    }
}

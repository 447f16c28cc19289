using System.Data.Common;
using Notifications.Shared.Data.FanOut;

namespace Notifications.Shared.Data;

/// <summary>
/// A batch of claimed outbox rows and the open transaction that deleted them. Commit after every
/// message is confirmed by the broker; dispose without committing to give the rows back.
/// </summary>
public sealed class OutboxClaim : IAsyncDisposable
{
    private readonly Func<DbTransaction, IReadOnlyList<(OutboxRow Row, string Reason)>, CancellationToken, Task> _reject;
    private readonly Func<DbTransaction, IReadOnlyList<FanOutJob>, CancellationToken, Task> _startFanOuts;

    internal OutboxClaim(
        DbConnection connection,
        DbTransaction transaction,
        IReadOnlyList<OutboxRow> rows,
        Func<DbTransaction, IReadOnlyList<(OutboxRow Row, string Reason)>, CancellationToken, Task> reject,
        Func<DbTransaction, IReadOnlyList<FanOutJob>, CancellationToken, Task> startFanOuts)
    {
        Connection = connection;
        Transaction = transaction;
        _reject = reject;
        _startFanOuts = startFanOuts;
        Rows = rows;
    }

    /// <summary>The claimed rows, oldest first.</summary>
    public IReadOnlyList<OutboxRow> Rows { get; }

    /// <summary>The claim's connection: the fan-out store writes a job's page in its transaction.</summary>
    internal DbConnection Connection { get; }

    /// <summary>The open transaction that deleted <see cref="Rows"/>.</summary>
    internal DbTransaction Transaction { get; }

    /// <summary>Moves rows that can never be published into the <c>rejected</c> table, in this transaction.</summary>
    public Task RejectAsync(IReadOnlyList<(OutboxRow Row, string Reason)> rejects, CancellationToken cancellationToken) =>
        rejects.Count == 0 ? Task.CompletedTask : _reject(Transaction, rejects, cancellationToken);

    /// <summary>
    /// Writes the fan-out jobs of the claimed audience rows (<see cref="OutboxRow.IsAudience"/>), in this transaction: each
    /// row leaves the outbox exactly when its job exists (docs/fan-out.md). A job already there (a claim retried) stays.
    /// </summary>
    public Task StartFanOutsAsync(IReadOnlyList<FanOutJob> jobs, CancellationToken cancellationToken) =>
        jobs.Count == 0 ? Task.CompletedTask : _startFanOuts(Transaction, jobs, cancellationToken);

    /// <summary>Makes the deletes (and rejects) permanent.</summary>
    public Task CommitAsync(CancellationToken cancellationToken) => Transaction.CommitAsync(cancellationToken);

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        // Disposing an uncommitted transaction rolls it back: the claimed rows return to the outbox.
        await Transaction.DisposeAsync();
        await Connection.DisposeAsync();
    }
}

using System.Data.Common;

namespace Notifications.Shared.Data;

/// <summary>
/// A batch of claimed outbox rows and the open transaction that deleted them. Commit after every
/// message is confirmed by the broker; dispose without committing to give the rows back.
/// </summary>
public sealed class OutboxClaim : IAsyncDisposable
{
    private readonly DbConnection _connection;
    private readonly DbTransaction _transaction;
    private readonly Func<DbTransaction, IReadOnlyList<(OutboxRow Row, string Reason)>, CancellationToken, Task> _reject;

    internal OutboxClaim(
        DbConnection connection,
        DbTransaction transaction,
        IReadOnlyList<OutboxRow> rows,
        Func<DbTransaction, IReadOnlyList<(OutboxRow Row, string Reason)>, CancellationToken, Task> reject)
    {
        _connection = connection;
        _transaction = transaction;
        _reject = reject;
        Rows = rows;
    }

    /// <summary>The claimed rows, oldest first.</summary>
    public IReadOnlyList<OutboxRow> Rows { get; }

    /// <summary>Moves rows that can never be published into the <c>rejected</c> table, in this transaction.</summary>
    public Task RejectAsync(IReadOnlyList<(OutboxRow Row, string Reason)> rejects, CancellationToken cancellationToken) =>
        rejects.Count == 0 ? Task.CompletedTask : _reject(_transaction, rejects, cancellationToken);

    /// <summary>Makes the deletes (and rejects) permanent.</summary>
    public Task CommitAsync(CancellationToken cancellationToken) => _transaction.CommitAsync(cancellationToken);

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        // Disposing an uncommitted transaction rolls it back: the claimed rows return to the outbox.
        await _transaction.DisposeAsync();
        await _connection.DisposeAsync();
    }
}

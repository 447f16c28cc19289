using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;

namespace Notifications.Client.EntityFrameworkCore;

/// <summary>
/// One context's notifications waiting for its next SaveChanges, and which transaction that SaveChanges writes them in.
/// A scoped service of the context: a pooled context's are forgotten when it goes back to the pool.
/// </summary>
internal sealed class SaveChangesNotifications : IResettableService
{
    private readonly List<PendingNotification> _pending = [];
    private readonly Dictionary<PendingNotification, long> _inserted = [];
    private readonly EventHandler<SaveChangesFailedEventArgs> _onFailed;
    private AutoTransactionBehavior? _overridden;

    public SaveChangesNotifications() => _onFailed = (sender, _) => Failed((DbContext)sender!);

    /// <summary>Where the running SaveChanges writes the notifications.</summary>
    public SaveChangesTransaction Transaction { get; private set; }

    /// <summary>Whether they were inserted in the running SaveChanges (in the transaction EF Core began, or the app's).</summary>
    public bool Inserted => _inserted.Count > 0;

    public IReadOnlyList<PendingNotification> Pending => _pending;

    public void Add(PendingNotification notification) => _pending.Add(notification);

    /// <summary>
    /// A SaveChanges with notifications starts. Without a transaction of the app's, EF Core must begin one even for a single
    /// statement (it skips it by default), so the inserts can join it; the app's setting comes back at the end.
    /// </summary>
    public void Saving(DbContext context)
    {
        _inserted.Clear();
        // The event, not only the interceptor: EF Core tells interceptors of every failure but a concurrency conflict.
        context.SaveChangesFailed -= _onFailed;
        context.SaveChangesFailed += _onFailed;
        Transaction = context.Database.CurrentTransaction is null ? SaveChangesTransaction.EfCores : SaveChangesTransaction.Apps;
        if (Transaction == SaveChangesTransaction.EfCores && context.Database.AutoTransactionBehavior == AutoTransactionBehavior.WhenNeeded)
        {
            _overridden = AutoTransactionBehavior.WhenNeeded;
            context.Database.AutoTransactionBehavior = AutoTransactionBehavior.Always;
        }
    }

    /// <summary>Inserted in a transaction that may still roll back (and be retried): the id is the notification's only at <see cref="Saved"/>.</summary>
    public void Insert(PendingNotification notification, long id) => _inserted[notification] = id;

    /// <summary>The SaveChanges succeeded: the notifications are the database's now (or in the app's transaction).</summary>
    public void Saved(DbContext context)
    {
        foreach (var (notification, id) in _inserted)
        {
            notification.Id = id;
        }

        _pending.Clear();
        End(context);
    }

    /// <summary>The SaveChanges failed: its transaction rolled back; the notifications wait for the next one, as the changes do.</summary>
    public void Failed(DbContext context) => End(context);

    public void ResetState()
    {
        _pending.Clear();
        _inserted.Clear();
        Transaction = SaveChangesTransaction.None;
        _overridden = null;
    }

    public Task ResetStateAsync(CancellationToken cancellationToken = default)
    {
        ResetState();
        return Task.CompletedTask;
    }

    private void End(DbContext context)
    {
        context.SaveChangesFailed -= _onFailed;
        _inserted.Clear();
        Transaction = SaveChangesTransaction.None;
        if (_overridden is { } behavior)
        {
            context.Database.AutoTransactionBehavior = behavior;
            _overridden = null;
        }
    }
}

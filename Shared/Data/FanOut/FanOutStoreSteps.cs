using System.Data.Common;
using Dapper;
using Notifications.Shared.Contract;

namespace Notifications.Shared.Data.FanOut;

/// <summary>
/// The steps of <see cref="IFanOutStore"/>, the same in both dialects; each dialect gives its statements (the parameters
/// <c>@Owner, @Lease, @Id, @Cursor, @PageEnd, @Last, @State, @Reason, @Name</c> and a page's own), its connections and its
/// parameter types.
/// </summary>
internal abstract class FanOutStoreSteps(int timeoutSeconds) : IFanOutStore
{
    internal abstract string LeaseSql { get; }

    internal abstract string TakeSql { get; }

    internal abstract string RenewSql { get; }

    internal abstract string AgainSql { get; }

    internal abstract string TopicSql { get; }

    internal abstract string TopicPageSql { get; }

    internal abstract string SubscriberPageSql { get; }

    internal abstract string EndSql { get; }

    internal abstract string AdvanceSql { get; }

    public async Task<FanOutJob?> LeaseAsync(string owner, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<FanOutJobRow>(new CommandDefinition(
            LeaseSql, new { Owner = owner, Lease = Lease(lease) }, commandTimeout: timeoutSeconds, cancellationToken: cancellationToken));
        return row?.ToJob();
    }

    public async Task<FanOutPage?> NextPageAsync(FanOutJob job, string owner, TimeSpan lease, int pageSize, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var position = await RenewAsync(connection, transaction, job, owner, lease, cancellationToken);
        if (position is null)
        {
            return null;
        }

        var page = await PageAsync(connection, transaction, job, position, pageSize, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        return page;
    }

    public async Task<FanOutPage?> WritePageInClaimAsync(
        OutboxClaim claim, FanOutJob job, string owner, TimeSpan lease, int pageSize, CancellationToken cancellationToken)
    {
        var position = await claim.Connection.QuerySingleOrDefaultAsync<JobPosition?>(new CommandDefinition(
            TakeSql, new { job.Id, Owner = owner, Lease = Lease(lease) }, claim.Transaction, timeoutSeconds, cancellationToken: cancellationToken));
        return position is null ? null : await PageAsync(claim.Connection, claim.Transaction, job, position, pageSize, cancellationToken);
    }

    public async Task<bool> AdvanceAsync(FanOutJob job, FanOutPage page, string owner, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        return await connection.ExecuteAsync(new CommandDefinition(
            AdvanceSql, new { job.Id, page.PageEnd, page.Last, Owner = owner, Lease = Lease(lease) },
            commandTimeout: timeoutSeconds, cancellationToken: cancellationToken)) == 1;
    }

    public async Task<bool[]> AdvanceAsync(
        IReadOnlyList<(FanOutJob Job, FanOutPage Page)> pages, string owner, TimeSpan lease, CancellationToken cancellationToken)
    {
        // One transaction: one commit (a WAL flush) for a claim's jobs, not one each.
        await using var connection = await OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var advanced = new bool[pages.Count];
        for (int i = 0; i < pages.Count; i++)
        {
            var (job, page) = pages[i];
            advanced[i] = await connection.ExecuteAsync(new CommandDefinition(
                AdvanceSql, new { job.Id, page.PageEnd, page.Last, Owner = owner, Lease = Lease(lease) },
                transaction, timeoutSeconds, cancellationToken: cancellationToken)) == 1;
        }

        await transaction.CommitAsync(cancellationToken);
        return advanced;
    }

    public async Task<bool> RenewAsync(FanOutJob job, string owner, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        return await RenewAsync(connection, null, job, owner, lease, cancellationToken) is not null;
    }

    /// <summary>An open connection.</summary>
    protected abstract Task<DbConnection> OpenAsync(CancellationToken cancellationToken);

    /// <summary>The value of <c>@Lease</c>: the dialect's way to add it to the clock.</summary>
    protected abstract object Lease(TimeSpan lease);

    /// <summary>The value of <c>@Name</c> for a topic's lookup.</summary>
    protected abstract object TopicName(string name);

    /// <summary>The parameters of a page's insert: <c>@ParentId, @TopicId, @Name, @Cursor, @PageSize, @Category</c> and the channels.</summary>
    protected abstract object PageParameters(FanOutJob job, long? topicId, string name, long cursor, int pageSize);

    private Task<JobPosition?> RenewAsync(
        DbConnection connection, DbTransaction? transaction, FanOutJob job, string owner, TimeSpan lease, CancellationToken cancellationToken) =>
        connection.QuerySingleOrDefaultAsync<JobPosition?>(new CommandDefinition(
            RenewSql, new { job.Id, Owner = owner, Lease = Lease(lease) }, transaction, timeoutSeconds, cancellationToken: cancellationToken));

    // The page after the job's cursor: the one written and not confirmed (the same ids again), or else a new one.
    private async Task<FanOutPage> PageAsync(
        DbConnection connection, DbTransaction transaction, FanOutJob job, JobPosition position, int pageSize, CancellationToken cancellationToken)
    {
        if (position.PageEnd is not { } pageEnd)
        {
            return await WritePageAsync(connection, transaction, job, position.Cursor, pageSize, cancellationToken);
        }

        // Written before a restart and not confirmed: the same deliveries, the same ids, again.
        var again = await connection.QueryAsync<AudienceDelivery>(new CommandDefinition(
            AgainSql, new { job.Id, position.Cursor, PageEnd = pageEnd }, transaction, timeoutSeconds, cancellationToken: cancellationToken));
        return new FanOutPage(again.AsList(), pageEnd, Last: false);
    }

    private async Task<FanOutPage> WritePageAsync(
        DbConnection connection, DbTransaction transaction, FanOutJob job, long cursor, int pageSize, CancellationToken cancellationToken)
    {
        AudienceAddress.TryParse(job.Audience, out bool isTopic, out string name);
        long? topicId = null;
        if (isTopic)
        {
            topicId = await connection.QuerySingleOrDefaultAsync<long?>(new CommandDefinition(
                TopicSql, new { Name = TopicName(name) }, transaction, timeoutSeconds, cancellationToken: cancellationToken));
            if (topicId is null)
            {
                return await EndAsync(connection, transaction, job, FanOutOutcomes.NoSuchAudience, $"no topic named '{name}'", cancellationToken);
            }
        }

        var written = (await connection.QueryAsync<WrittenDelivery>(new CommandDefinition(
            isTopic ? TopicPageSql : SubscriberPageSql, PageParameters(job, topicId, name, cursor, pageSize),
            transaction, timeoutSeconds, cancellationToken: cancellationToken))).AsList();
        if (written.Count == 0)
        {
            return !isTopic && cursor == 0
                ? await EndAsync(connection, transaction, job, FanOutOutcomes.NoSuchAudience, $"no subscriber '{name}'", cancellationToken)
                : await EndAsync(connection, transaction, job, FanOutOutcomes.Done, null, cancellationToken);
        }

        // The page statement has also moved the job's page end and counts on.
        return WrittenDelivery.Page(written, pageSize, isTopic);
    }

    private async Task<FanOutPage> EndAsync(
        DbConnection connection, DbTransaction transaction, FanOutJob job, string state, string? reason, CancellationToken cancellationToken)
    {
        await connection.ExecuteAsync(new CommandDefinition(
            EndSql, new { job.Id, State = state, Reason = reason }, transaction, timeoutSeconds, cancellationToken: cancellationToken));
        return FanOutPage.Ended;
    }
}

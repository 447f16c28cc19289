using Dapper;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>The <c>admin_job</c> table on PostgreSQL; the claim is FOR UPDATE SKIP LOCKED, so two runners never take one job.</summary>
internal sealed class PostgresAdminJobStore : IAdminJobStore
{
    private const string Columns = """
        id AS Id, kind AS Kind, reason_class AS ReasonClass, notification_ids AS NotificationIds, requested_by AS RequestedBy, state AS State,
        total AS Total, done AS Done, failed AS Failed, lease_owner AS LeaseOwner, created_at AS CreatedAt, started_at AS StartedAt,
        finished_at AS FinishedAt, last_error AS LastError
        """;

    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;

    public PostgresAdminJobStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        CreateSql = $"""
            INSERT INTO "{s}".admin_job (kind, reason_class, notification_ids, requested_by)
            VALUES (@Kind, @Group, @Ids, @RequestedBy) RETURNING id
            """;
        // A lease that ran out is a runner that stopped: the job is resumed with what its selection still holds.
        ClaimSql = $"""
            UPDATE "{s}".admin_job
            SET state = 'running', lease_owner = @Owner, lease_until = now() + make_interval(secs => @LeaseSeconds),
                started_at = COALESCE(started_at, now())
            WHERE id = (SELECT id FROM "{s}".admin_job
                        WHERE state IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
                          AND (@Id::bigint IS NULL OR id = @Id::bigint)
                        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING {Columns}
            """;
        ProgressSql = $"""
            UPDATE "{s}".admin_job
            SET total = @Total, done = @Done, failed = @Failed, lease_until = now() + make_interval(secs => @LeaseSeconds)
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running'
            """;
        FinishSql = $"""
            UPDATE "{s}".admin_job SET state = @State, last_error = @Error, finished_at = now(), lease_until = NULL
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running'
            """;
        GetSql = $"""SELECT {Columns} FROM "{s}".admin_job WHERE id = @Id""";
        ListSql = $"""
            SELECT {Columns} FROM "{s}".admin_job WHERE @Before::bigint IS NULL OR id < @Before::bigint ORDER BY id DESC LIMIT @Limit
            """;
    }

    internal string CreateSql { get; }

    internal string ClaimSql { get; }

    internal string ProgressSql { get; }

    internal string FinishSql { get; }

    internal string GetSql { get; }

    internal string ListSql { get; }

    public async Task<long> CreateAsync(string kind, DeadLetterSelection selection, string requestedBy, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteScalarAsync<long>(Command(CreateSql, AdminJobRow.Parameters(kind, selection, requestedBy), cancellationToken));
    }

    public async Task<AdminJob?> ClaimAsync(long? id, string owner, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var row = await connection.QuerySingleOrDefaultAsync<AdminJobRow>(Command(ClaimSql, new { Id = id, Owner = owner, LeaseSeconds = lease.TotalSeconds }, cancellationToken));
        return row?.ToJob();
    }

    public async Task<bool> ProgressAsync(long id, string owner, long total, long done, long failed, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(Command(ProgressSql,
            new { Id = id, Owner = owner, Total = total, Done = done, Failed = failed, LeaseSeconds = lease.TotalSeconds }, cancellationToken)) == 1;
    }

    public async Task FinishAsync(long id, string owner, string state, string? error, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        await connection.ExecuteAsync(Command(FinishSql, new { Id = id, Owner = owner, State = state, Error = DeadLetterRecord.Cut(error, 1000) }, cancellationToken));
    }

    public async Task<AdminJob?> GetAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QuerySingleOrDefaultAsync<AdminJobRow>(Command(GetSql, new { Id = id }, cancellationToken)))?.ToJob();
    }

    public async Task<IReadOnlyList<AdminJob>> ListAsync(long? before, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<AdminJobRow>(Command(ListSql, new { Before = before, Limit = limit }, cancellationToken))).Select(r => r.ToJob()).ToList();
    }

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}

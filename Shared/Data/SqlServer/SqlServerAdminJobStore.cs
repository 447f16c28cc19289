using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>The <c>admin_job</c> table on SQL Server; the claim reads past locked rows (UPDLOCK, READPAST), so two runners never take one job.</summary>
internal sealed class SqlServerAdminJobStore : IAdminJobStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerAdminJobStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        string s = options.Schema;
        CreateSql = $"""
            INSERT INTO [{s}].[admin_job] (kind, reason_class, notification_ids, requested_by)
            OUTPUT INSERTED.id
            VALUES (@Kind, @Group, @Ids, @RequestedBy);
            """;
        // A lease that ran out is a runner that stopped: the job is resumed with what its selection still holds.
        ClaimSql = $"""
            WITH next AS (
                SELECT TOP (1) * FROM [{s}].[admin_job] WITH (UPDLOCK, READPAST, ROWLOCK)
                WHERE state IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < SYSUTCDATETIME())
                  AND (@Id IS NULL OR id = @Id)
                ORDER BY id)
            UPDATE next
            SET state = 'running', lease_owner = @Owner, lease_until = DATEADD(millisecond, @LeaseMs, SYSUTCDATETIME()),
                started_at = COALESCE(started_at, SYSUTCDATETIME())
            OUTPUT {Columns("INSERTED.")};
            """;
        ProgressSql = $"""
            UPDATE [{s}].[admin_job]
            SET total = @Total, done = @Done, failed = @Failed, lease_until = DATEADD(millisecond, @LeaseMs, SYSUTCDATETIME())
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running';
            """;
        FinishSql = $"""
            UPDATE [{s}].[admin_job] SET state = @State, last_error = @Error, finished_at = SYSUTCDATETIME(), lease_until = NULL
            WHERE id = @Id AND lease_owner = @Owner AND state = 'running';
            """;
        GetSql = $"""SELECT {Columns("")} FROM [{s}].[admin_job] WHERE id = @Id;""";
        ListSql = $"""SELECT TOP (@Limit) {Columns("")} FROM [{s}].[admin_job] WHERE @Before IS NULL OR id < @Before ORDER BY id DESC;""";
    }

    internal string CreateSql { get; }

    internal string ClaimSql { get; }

    internal string ProgressSql { get; }

    internal string FinishSql { get; }

    internal string GetSql { get; }

    internal string ListSql { get; }

    public async Task<long> CreateAsync(string kind, DeadLetterSelection selection, string requestedBy, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteScalarAsync<long>(Command(CreateSql, AdminJobRow.Parameters(kind, selection, requestedBy), cancellationToken));
    }

    public async Task<AdminJob?> ClaimAsync(long? id, string owner, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var row = await connection.QuerySingleOrDefaultAsync<AdminJobRow>(Command(ClaimSql, new { Id = id, Owner = owner, LeaseMs = (int)lease.TotalMilliseconds }, cancellationToken));
        return row?.ToJob();
    }

    public async Task<bool> ProgressAsync(long id, string owner, long total, long done, long failed, TimeSpan lease, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return await connection.ExecuteAsync(Command(ProgressSql,
            new { Id = id, Owner = owner, Total = total, Done = done, Failed = failed, LeaseMs = (int)lease.TotalMilliseconds }, cancellationToken)) == 1;
    }

    public async Task FinishAsync(long id, string owner, string state, string? error, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.ExecuteAsync(Command(FinishSql, new { Id = id, Owner = owner, State = state, Error = DeadLetterRecord.Cut(error, 1000) }, cancellationToken));
    }

    public async Task<AdminJob?> GetAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return (await connection.QuerySingleOrDefaultAsync<AdminJobRow>(Command(GetSql, new { Id = id }, cancellationToken)))?.ToJob();
    }

    public async Task<IReadOnlyList<AdminJob>> ListAsync(long? before, int limit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        return (await connection.QueryAsync<AdminJobRow>(Command(ListSql, new { Before = before, Limit = limit }, cancellationToken))).Select(r => r.ToJob()).ToList();
    }

    private static string Columns(string prefix) => $"""
        {prefix}id AS Id, {prefix}kind AS Kind, {prefix}reason_class AS ReasonClass, {prefix}notification_ids AS NotificationIds,
        {prefix}requested_by AS RequestedBy, {prefix}state AS State, {prefix}total AS Total, {prefix}done AS Done, {prefix}failed AS Failed,
        {prefix}lease_owner AS LeaseOwner, CAST(SWITCHOFFSET({prefix}created_at, '+00:00') AS datetime2(3)) AS CreatedAt,
        CAST(SWITCHOFFSET({prefix}started_at, '+00:00') AS datetime2(3)) AS StartedAt,
        CAST(SWITCHOFFSET({prefix}finished_at, '+00:00') AS datetime2(3)) AS FinishedAt, {prefix}last_error AS LastError
        """;

    private CommandDefinition Command(string sql, object parameters, CancellationToken cancellationToken) =>
        new(sql, parameters, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken);
}

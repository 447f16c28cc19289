using System.Data.Common;
using Npgsql;

namespace Notifications.Client.PostgreSql;

/// <summary>The client's SQL on PostgreSQL: the enqueue (with or without an idempotency key) and the status query.</summary>
internal sealed class PostgresOutboxDialect : IOutboxDialect
{
    public static readonly PostgresOutboxDialect Instance = new();

    public Type ConnectionType => typeof(NpgsqlConnection);

    public string PackageId => "Notifications.Client.PostgreSql";

    public IRegistryDialect Registry => PostgresRegistryDialect.Instance;

    public async Task<long> EnqueueAsync(DbTransaction transaction, OutboxValues values, string schema, CancellationToken cancellationToken)
    {
        if (values.IdempotencyKey is null)
        {
            await using var insert = values.Command(transaction, InsertSql(schema));
            long id = (long)(await insert.ExecuteScalarAsync(cancellationToken))!;
            await values.InsertAttachmentsAsync(transaction, AttachmentSql(schema), id, cancellationToken);
            return id;
        }

        // Two statements, not one: under READ COMMITTED each statement takes a fresh snapshot. When another
        // transaction holds an uncommitted row with the same key, the INSERT ... ON CONFLICT waits for it; if
        // that transaction commits, the insert does nothing and only the NEXT statement's snapshot sees the
        // committed row (one statement would read the old snapshot and find no id); if it rolls back, this
        // insert goes ahead. Under REPEATABLE READ or SERIALIZABLE the waiting insert fails with a
        // serialization error (40001) instead: retry the transaction, as for any such error.
        int inserted;
        await using (var claim = values.Command(transaction, ClaimKeySql(schema)))
        {
            inserted = await claim.ExecuteNonQueryAsync(cancellationToken);
        }

        await using var find = values.Command(transaction, FindKeySql(schema));
        long first = (long)(await find.ExecuteScalarAsync(cancellationToken))!;
        if (inserted == 1)
        {
            // A repeated key inserted no row: the first notification has its files already.
            await values.InsertAttachmentsAsync(transaction, AttachmentSql(schema), first, cancellationToken);
        }

        return first;
    }

    public string StatusSql(string schema) => $"""
        SELECT notification_id, state, at, attempts, not_before, reason, detail FROM "{schema}".notification_status(@Id)
        """;

    public string TemplateVariablesSql(string schema) => $"""
        SELECT locale, version, variables FROM "{schema}".template WHERE name = @Name
        """;

    internal static string InsertSql(string schema) => $"""
        INSERT INTO "{schema}".outbox ({OutboxValues.Columns}) VALUES ({OutboxValues.Parameters}) RETURNING id
        """;

    /// <summary>
    /// Takes the key with the next outbox id, and inserts the outbox row only if the key was new: a repeated
    /// key consumes a sequence value (a gap), never an outbox row.
    /// </summary>
    internal static string ClaimKeySql(string schema) => $"""
        WITH fresh AS (
            INSERT INTO "{schema}".idempotency_key (idempotency_key, notification_id)
            VALUES (@IdempotencyKey, nextval(pg_get_serial_sequence('"{schema}".outbox', 'id')))
            ON CONFLICT (idempotency_key) DO NOTHING
            RETURNING notification_id)
        INSERT INTO "{schema}".outbox (id, {OutboxValues.Columns})
        SELECT notification_id, {OutboxValues.Parameters} FROM fresh
        """;

    internal static string AttachmentSql(string schema) => $"""
        INSERT INTO "{schema}".attachment (notification_id, position, file_name, content_type, content)
        VALUES (@NotificationId, @Position, @FileName, @ContentType, @Content)
        """;

    internal static string FindKeySql(string schema) => $"""
        SELECT notification_id FROM "{schema}".idempotency_key WHERE idempotency_key = @IdempotencyKey
        """;
}

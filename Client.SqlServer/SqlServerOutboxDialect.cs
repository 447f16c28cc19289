using System.Data.Common;
using Microsoft.Data.SqlClient;

namespace Notifications.Client.SqlServer;

/// <summary>The client's T-SQL: the enqueue (with or without an idempotency key) and the status query.</summary>
internal sealed class SqlServerOutboxDialect : IOutboxDialect
{
    public static readonly SqlServerOutboxDialect Instance = new();

    public Type ConnectionType => typeof(SqlConnection);

    public string PackageId => "Notifications.Client.SqlServer";

    public IRegistryDialect Registry => SqlServerRegistryDialect.Instance;

    public async Task<long> EnqueueAsync(DbTransaction transaction, OutboxValues values, string schema, CancellationToken cancellationToken)
    {
        string sql = values.IdempotencyKey is null ? InsertSql(schema) : InsertOnceSql(schema);
        long id;
        bool inserted;
        await using (var command = values.Command(transaction, sql))
        await using (var reader = await command.ExecuteReaderAsync(cancellationToken))
        {
            await reader.ReadAsync(cancellationToken);
            id = reader.GetInt64(0);
            inserted = reader.GetInt32(1) == 1;
        }

        if (inserted)
        {
            // A repeated key inserted no row: the first notification has its files already.
            await values.InsertAttachmentsAsync(transaction, AttachmentSql(schema), id, cancellationToken);
        }

        return id;
    }

    /// <summary>The status query (an inline table-valued function).</summary>
    public string StatusSql(string schema) => $"""
        SELECT notification_id, state, at, attempts, not_before, reason, detail FROM [{schema}].[notification_status](@Id);
        """;

    /// <summary>The template check's query (<see cref="TemplateCatalog"/>).</summary>
    public string TemplateVariablesSql(string schema) => $"""
        SELECT locale, version, variables FROM [{schema}].[template] WHERE name = @Name;
        """;

    /// <summary>The plain insert, reachable by the T-SQL parser tests.</summary>
    internal static string InsertSql(string schema) => $"""
        INSERT INTO [{schema}].[outbox] ({OutboxValues.Columns})
        OUTPUT INSERTED.id, 1 VALUES ({OutboxValues.Parameters});
        """;

    /// <summary>One attached file of the notification just inserted.</summary>
    internal static string AttachmentSql(string schema) => $"""
        INSERT INTO [{schema}].[attachment] (notification_id, position, file_name, content_type, content)
        VALUES (@NotificationId, @Position, @FileName, @ContentType, @Content);
        """;

    /// <summary>
    /// The insert with an idempotency key. The look-up takes UPDLOCK + HOLDLOCK (serializable) on the key, or,
    /// when the key is absent, on its key range: a second transaction with the same key blocks on that look-up
    /// (update locks exclude each other) until the first commits, then reads its id, or rolls back, then takes
    /// the key itself. Without HOLDLOCK both could find no row and the second would fail on the primary key;
    /// without UPDLOCK both would hold shared range locks and deadlock on their inserts. The locks are held
    /// to the end of the caller's transaction. A locking read also ignores READ_COMMITTED_SNAPSHOT's versions.
    /// </summary>
    internal static string InsertOnceSql(string schema) => $"""
        SET NOCOUNT ON;
        DECLARE @id bigint, @inserted int = 0;
        SELECT @id = notification_id FROM [{schema}].[idempotency_key] WITH (UPDLOCK, HOLDLOCK)
        WHERE idempotency_key = @IdempotencyKey;
        IF @id IS NULL
        BEGIN
            DECLARE @inserted TABLE (id bigint NOT NULL);
            INSERT INTO [{schema}].[outbox] ({OutboxValues.Columns})
            OUTPUT INSERTED.id INTO @inserted VALUES ({OutboxValues.Parameters});
            SELECT @id = id FROM @inserted;
            INSERT INTO [{schema}].[idempotency_key] (idempotency_key, notification_id) VALUES (@IdempotencyKey, @id);
            SET @inserted = 1;
        END;
        SELECT @id, @inserted;
        """;
}

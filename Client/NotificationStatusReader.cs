using System.Data;
using System.Data.Common;

namespace Notifications.Client;

/// <summary>Runs a dialect's <see cref="IOutboxDialect.StatusSql"/> and reads its one row, the same for every driver.</summary>
internal static class NotificationStatusReader
{
    public static async Task<NotificationStatus> ReadAsync(DbConnection connection, string sql, long id, CancellationToken cancellationToken)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        var parameter = command.CreateParameter();
        parameter.ParameterName = "Id";
        parameter.DbType = DbType.Int64;
        parameter.Value = id;
        command.Parameters.Add(parameter);
        await using var reader = await command.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken);
        if (!await reader.ReadAsync(cancellationToken))
        {
            throw new InvalidOperationException("notification_status answered no row: is the schema migrated (notifications-admin migrate)?");
        }

        string state = reader.GetString(1);
        // Both drivers read timestamptz / datetimeoffset as a DateTimeOffset (Npgsql: in UTC).
        return new NotificationStatus(
            reader.GetInt64(0),
            NotificationStatus.StateOf(state),
            state,
            await NullableAsync<DateTimeOffset>(reader, 2, cancellationToken),
            await NullableAsync<int>(reader, 3, cancellationToken),
            await NullableAsync<DateTimeOffset>(reader, 4, cancellationToken),
            await reader.IsDBNullAsync(5, cancellationToken) ? null : reader.GetString(5),
            reader.GetString(6));
    }

    private static async Task<T?> NullableAsync<T>(DbDataReader reader, int ordinal, CancellationToken cancellationToken)
        where T : struct =>
        await reader.IsDBNullAsync(ordinal, cancellationToken) ? null : reader.GetFieldValue<T>(ordinal);
}

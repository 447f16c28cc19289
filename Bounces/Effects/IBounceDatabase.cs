using System.Data.Common;

namespace Notifications.Bounces.Effects;

/// <summary>The bounce receiver's statements and connections, one implementation per SQL dialect.</summary>
internal interface IBounceDatabase
{
    /// <summary>1 when the delivery log has a record of the notification (<c>@Id</c>), else 0.</summary>
    string DeliveredSql { get; }

    /// <summary>Inserts an outcome (<c>@Id, @Outcome, @Recipient, @Status, @Diagnostic</c>) unless it is recorded already: 1 row or 0.</summary>
    string RecordOutcomeSql { get; }

    /// <summary>How many notifications to <c>@Recipient</c> were deferred since <c>@Since</c>.</summary>
    string CountDeferredSql { get; }

    /// <summary>An open connection.</summary>
    Task<DbConnection> OpenAsync(CancellationToken cancellationToken);
}

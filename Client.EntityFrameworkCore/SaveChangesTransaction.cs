namespace Notifications.Client.EntityFrameworkCore;

/// <summary>Which transaction a SaveChanges with notifications writes them in.</summary>
internal enum SaveChangesTransaction
{
    /// <summary>No SaveChanges with notifications is running.</summary>
    None,

    /// <summary>The one EF Core begins for the SaveChanges (each retry of an execution strategy begins a new one).</summary>
    EfCores,

    /// <summary>The app's own (<c>Database.BeginTransactionAsync</c>), which the app commits or rolls back.</summary>
    Apps,
}

using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace Notifications.Client.EntityFrameworkCore;

/// <summary>
/// What <see cref="NotificationsDbContextOptionsExtensions.UseNotificationsOutbox(DbContextOptionsBuilder, string)"/> adds to a context's options: the
/// interceptor, and the per-context list of notifications waiting for SaveChanges (a scoped, resettable service).
/// </summary>
internal sealed class NotificationsOutboxOptionsExtension(string schema) : IDbContextOptionsExtension
{
    private DbContextOptionsExtensionInfo? _info;

    public string Schema { get; } = schema;

    public DbContextOptionsExtensionInfo Info => _info ??= new ExtensionInfo(this);

    public void ApplyServices(IServiceCollection services)
    {
        services.AddScoped<SaveChangesNotifications>();
        services.AddScoped<IResettableService>(sp => sp.GetRequiredService<SaveChangesNotifications>());
        services.AddSingleton<IInterceptor>(new SaveChangesNotificationsInterceptor(Schema));
    }

    public void Validate(IDbContextOptions options)
    {
    }

    private sealed class ExtensionInfo(NotificationsOutboxOptionsExtension extension) : DbContextOptionsExtensionInfo(extension)
    {
        public override bool IsDatabaseProvider => false;

        public override string LogFragment => $"NotificationsOutbox(schema={extension.Schema}) ";

        // The schema is in the interceptor the internal service provider holds: one provider per schema.
        public override int GetServiceProviderHashCode() => StringComparer.Ordinal.GetHashCode(extension.Schema);

        public override bool ShouldUseSameServiceProvider(DbContextOptionsExtensionInfo other) =>
            other is ExtensionInfo info && info.Extension is NotificationsOutboxOptionsExtension o && o.Schema == extension.Schema;

        public override void PopulateDebugInfo(IDictionary<string, string> debugInfo) =>
            debugInfo["Notifications:Schema"] = extension.Schema;
    }
}

#!/bin/sh
# Makes admin.sqlite with Django's own `migrate` (pip install django; made with 5.1.4): the
# tables of the admin, auth, contenttypes and sessions apps as Django's SQLite backend writes
# them (UNIQUE table constraints, foreign keys DEFERRABLE INITIALLY DEFERRED, CHECKs on positive
# integer fields, AUTOINCREMENT keys, its django_migrations bookkeeping), plus a superuser and a
# log entry. The tests read the committed file; run this only to remake it.
set -e
cd "$(dirname "$0")"
rm -f admin.sqlite
work=$(mktemp -d)
cat > "$work/settings.py" <<PY
SECRET_KEY = "fixture"
INSTALLED_APPS = ["django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "$PWD/admin.sqlite"}}
USE_TZ = True
SILENCED_SYSTEM_CHECKS = ["admin.E403", "admin.E406", "admin.E408", "admin.E409", "admin.E410"]
PY
PYTHONPATH="$work" DJANGO_SETTINGS_MODULE=settings python3 -m django migrate -v 0
PYTHONPATH="$work" DJANGO_SETTINGS_MODULE=settings python3 - <<PY
import django
django.setup()
from django.contrib.auth.models import User
from django.contrib.admin.models import LogEntry, ADDITION
from django.contrib.contenttypes.models import ContentType
user = User.objects.create_superuser("ada", "ada@example.com", "not-a-secret")
LogEntry.objects.create(user=user, content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk),
                        object_repr="ada", action_flag=ADDITION, change_message="made")
PY
rm -rf "$work"

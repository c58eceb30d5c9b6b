# daemons/: fpmsyncd and orchd.

set unwindonsignal on
echo T-ensure\n
set $ncd_gil = (int)PyGILState_Ensure()
echo T-run\n
set $ncd_rc = (int)PyRun_SimpleString("exec(open('/tmp/flake/exp/r1.py').read())")
echo T-release\n
call (void)PyGILState_Release($ncd_gil)
detach
